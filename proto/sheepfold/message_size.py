"""How large one gRPC message may be, shared by the server (`serve
--max-message-bytes`) and its clients (the SDK's `max_message_bytes`,
`sheepfold bot --max-message-bytes`): written by hand beside the generated
code, the one package both may import, and free of gRPC and protobuf so that
the command line writes these into its help without loading them."""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_MESSAGE_BYTES", "MIN_MAX_MESSAGE_BYTES"]

# The largest message sent or received, by default: also what a gRPC client
# takes unless told otherwise.
DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024

# The least the largest message may be: a decision is one message, and in
# 4,400 random 5-player Stubborn Sheep games the largest listed 4,651 ways to
# score a crowded pen, 365 KB, and a pen past 5,000 ways lists each once up to
# identical cards, so none passes about 400 KB (every other game stays under
# 12 KB). A server allowed 64 KiB started, and its seats' streams failed
# RESOURCE_EXHAUSTED mid-match; a client that takes less than that refuses
# decisions its server sends.
MIN_MAX_MESSAGE_BYTES = 1024 * 1024
