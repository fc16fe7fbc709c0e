"""Settings: the config file and its checks, editing it, the TUI's own settings, where files live."""
