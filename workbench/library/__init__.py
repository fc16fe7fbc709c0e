"""The reading workflow's records and rules: triage states and filters, listings, reading a paper."""
