"""Language model adapters (llama.cpp in-process or server, and a stand-in for tests)."""
