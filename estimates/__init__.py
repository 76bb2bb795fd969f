"""Speed estimates for tiers nobody has measured: CPU model keys, the shipped speed-score
table (derived from public per-server benchmark data, CC BY-SA 4.0: see data/ATTRIBUTION.md)
and the estimate model with its uncertainty band. Pure Python: no Django, no database
(an import-linter contract keeps it so); `benchmarks_app.selectors` and the planner's input
gathering call it.
"""
