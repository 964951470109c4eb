from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar

DESCRIPTOR: _descriptor.FileDescriptor

class StubbornSheepObservation(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StubbornSheepAction(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StubbornSheepEvent(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
