"""What the engine does for the process it runs in, as a whole."""
from __future__ import annotations


def one_command_process() -> None:
    """For a process that ends after its one command (the console command, league.cli.run): what is still
    alive when it exits is frozen first (gc.freeze, the last atexit function to run), so that the
    interpreter's final collection does not walk the loaded content, the plan and the kept cache entries
    once more on the way out: ~0.4 s of a cold build of the 20-season archive (0.52 → 0.13 s from the last
    atexit function to the process's end, in process). The memory goes back to the system as it ends."""
    import atexit
    import gc
    atexit.register(gc.freeze)   # (registered first: atexit runs its functions last-registered first)
