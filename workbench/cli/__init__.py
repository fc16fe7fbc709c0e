"""The command line: `workbench VERB`; formats the engine's records, never opens a store."""
