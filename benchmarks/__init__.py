"""Performance measurements: `python -m benchmarks --help`.

Sections: engine (pure rules engines), server and baseline (a real server
subprocess against a bare grpc.aio server, the same traffic, bots in their own
process), memory (RSS per live match), tournament (round robin throughput).
Figures are reported, never asserted.
"""
