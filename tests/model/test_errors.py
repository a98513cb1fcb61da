"""The one error type of bad input (``corpusagree.model.errors``): one line per problem."""

from __future__ import annotations

import zipfile

import pytest

from corpusagree.model.errors import InputError, one_line
from corpusagree.readers import xmi

BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


@pytest.mark.parametrize("char", list(BREAKS), ids=[f"U+{ord(c):04X}" for c in BREAKS])
def test_a_message_stays_one_line_whatever_the_names_in_it(char):
    """A name from the data (a file, a zip member) holding a character that ends a line for
    ``str.splitlines`` is escaped, in the message and in the path."""
    e = InputError(f"cannot inflate ann{char}tation/a.xmi: bad", f"in/a{char}b.zip", 3)
    assert len(str(e).splitlines()) == 1
    assert str(e) == f"in/a{repr(char)[1:-1]}b.zip:3: cannot inflate " \
                     f"ann{repr(char)[1:-1]}tation/a.xmi: bad"
    assert one_line("plain text") == "plain text"


def test_a_zip_member_named_with_a_control_character_is_one_line(tmp_path):
    """The fuzz run's case 0-13743: a flipped byte in an export zip's central directory gave
    a member name with U+001C, which split the message in two."""
    z = tmp_path / "annotation.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("annotation/doc.txt/ann1.xmi", "<xmi/>")
    data = bytearray(z.read_bytes())
    at = data.rindex(b"annotation/doc.txt/ann1.xmi")  # the central directory's copy
    data[at + 3] = 0x1C
    z.write_bytes(bytes(data))
    with pytest.raises(InputError) as e:
        xmi.read([z])
    assert len(str(e.value).splitlines()) == 1 and str(e.value).startswith(f"{z}: ")
