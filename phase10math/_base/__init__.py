"""The kit's machinery, shared by every layer and not part of its API: the argument checks
of the public functions (:mod:`~phase10math._base.checks`), files opened without blocking
(:mod:`~phase10math._base.files`), lazy exports (:mod:`~phase10math._base.lazy`), progress
bars (:mod:`~phase10math._base.progress`), the start-up of the command line and its
interrupts (:mod:`~phase10math._base.startup`), the pools of worker processes
(:mod:`~phase10math._base.workers`), files that cannot run code when read
(:mod:`~phase10math._base.savefile`: the two-player checkpoints) and the 2x2 pair step and
its certificate that both two-player games share (:mod:`~phase10math._base.pairs`)."""
