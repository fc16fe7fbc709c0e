"""Stores: the DuckDB catalog, the LanceDB chunk table and (later) the Kùzu graph."""
