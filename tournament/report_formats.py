"""The formats a tournament's report is written in, apart from the report itself
so that the command line can offer them without importing the ratings."""

FORMATS = ("text", "json", "csv", "markdown", "html")
