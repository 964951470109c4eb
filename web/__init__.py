"""The web front end: an HTTP gateway over the public gRPC API and the
tournament databases, serving plain JavaScript modules and SVG (no build step)."""
