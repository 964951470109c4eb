"""Spins four threads for ever: hashing a large buffer releases the GIL, so
each thread keeps a core busy."""

import hashlib
import threading

DATA = b"x" * (1 << 20)


def spin() -> None:
    while True:
        hashlib.sha256(DATA).digest()


threads = [threading.Thread(target=spin, daemon=True) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
