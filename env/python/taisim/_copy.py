"""``copy.deepcopy`` and ``copy.copy`` of the environments, and why they do not pickle.

An environment's deal lives in its Rust engine (``self._native``). A copy clones that engine
(the deal, the opponents' generators and scratch, the learner's state) and deep-copies the
Python attributes around it (the spaces, ``np_random``, the last mask), so the copy goes on
exactly as the original would, and stepping one never changes the other: what a search over
a state, or a branch of a deal, needs. ``copy.copy`` gives the same independent copy: a
shallow copy would share the engine, and two environments stepping one deal is never what
is meant.

Pickling is refused with a ``TypeError`` saying why and what to do instead: the engine's
state has no serialised form, and the tools that send environments to other processes
(``AsyncVectorEnv``, SB3's ``SubprocVecEnv``) send the function that makes one instead.
"""

import copy


class NativeCopy:
    """Deep and shallow copies that clone the Rust engine; pickling refused. ``_copy_what``
    names the class in messages."""

    _copy_what = "environment"

    def _copy_native(self):
        """An independent clone of ``self._native`` (the engine's own ``copy()``)."""
        from taisim._seed import reraise_in_use

        try:
            return self._native.copy()
        except RuntimeError as e:
            reraise_in_use(e, self._copy_what)
            raise

    def __deepcopy__(self, memo):
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            if key == "_native":
                value = self._copy_native()
            else:
                value = copy.deepcopy(value, memo)
            new.__dict__[key] = value
        return new

    def __copy__(self):
        return self.__deepcopy__({})

    def __reduce_ex__(self, protocol):
        raise TypeError(
            f"a taisim {self._copy_what} cannot be pickled: its deal lives in the Rust engine, "
            f"which has no serialised form. To branch a deal in this process use "
            f"copy.deepcopy(env); to make environments in other processes (AsyncVectorEnv, "
            f"SB3's SubprocVecEnv) pass the function that makes one, e.g. "
            f"lambda: gymnasium.make(\"taisim/Taiwan16-v0\"), and replay seeds and actions")


class NoCopy:
    """Copies and pickling refused with a ``TypeError`` saying why (a batch stepped in Rust,
    whose engine is not cloned)."""

    _copy_what = "batch"

    def _refuse(self, what):
        raise TypeError(
            f"a taisim.{type(self).__name__} cannot be {what}: its environments live in the "
            f"Rust engine with their thread pool, which is not cloned. Make another batch with "
            f"the same arguments and reset it with the same seed: it deals the same deals")

    def __deepcopy__(self, memo):
        self._refuse("deep-copied")

    def __copy__(self):
        self._refuse("copied")

    def __reduce_ex__(self, protocol):
        self._refuse("pickled")
