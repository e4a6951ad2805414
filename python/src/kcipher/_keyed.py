"""What the objects that hold round keys share (Cipher, AEAD, DRBG): ``with`` closes them, which
wipes the keys, and their repr names the class and the kernel."""
from typing import TYPE_CHECKING, Any, TypeVar

_T = TypeVar("_T", bound="Keyed")


class Keyed:
    """A mixin after the extension class in the bases, which supplies close(), closed and kernel."""

    if TYPE_CHECKING:

        def close(self) -> None: ...

        @property
        def closed(self) -> bool: ...

        @property
        def kernel(self) -> str: ...

    def __enter__(self: _T) -> _T:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.closed:
            return f"<kcipher.{type(self).__name__} (closed)>"
        return f"<kcipher.{type(self).__name__} {self._describe()}kernel={self.kernel}>"

    def _describe(self) -> str:
        """What the repr says before the kernel (ending in a space), or nothing."""
        return ""
