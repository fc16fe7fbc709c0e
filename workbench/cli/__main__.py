"""`python -m workbench.cli VERB ...`: the command line without the TUI check of `workbench`."""

from workbench.cli.main import main

if __name__ == "__main__":  # not when a worker process (OCR's) imports the main module again
    raise SystemExit(main())
