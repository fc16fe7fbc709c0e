"""`python -m workbench.cli VERB ...`: the command line without the TUI check of `workbench`."""

from workbench.cli.main import main

raise SystemExit(main())
