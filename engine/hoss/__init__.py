"""HOSS TCG: creature lines that evolve, fighting in real time in five-second rounds."""
