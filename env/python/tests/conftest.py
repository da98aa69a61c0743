import pytest

import taisim


@pytest.fixture
def legal():
    """The legal indices of a mask."""

    def indices(mask):
        return [int(i) for i in (mask == 1).nonzero()[0]]

    return indices


@pytest.fixture
def space_size():
    return taisim.ACTION_SPACE_SIZE
