"""Where a tournament's games are played: here (the default) or on a Ray cluster.

Only `settings` is imported by the rest of the tournament package; `ray` and
`ray_task` import Ray and are loaded when a run asks for it.
"""
