"""The change log: what changed in the data a plan's figures rest on, and when.

A small app at the bottom of the layers, so `catalog` and `benchmarks_app` can record
their writes without importing the plans code. `services.record(kind, obj)` logs one
write; `selectors.current_generation()` is the data generation that cache keys use.
"""
