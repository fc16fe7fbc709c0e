"""Query path: retrieval, fusion and (later) intent, depth, answers and critic."""
