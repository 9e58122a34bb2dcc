"""Every size and timing threshold of the executor and the kernels: what each trades, and how it was set.

The runtime (``numflow.runtime``) and the kernels read them from here; this module imports nothing.
None of them changes what a program computes, except the block sizes marked *bits*: those fix how a
kernel splits a sum, so a new value gives new (equally valid) rounding, the same on every run and
thread count. Timing figures are for the two-core machine the project is measured on.

Kernels compiled by Numba with ``cache=True`` freeze the values they read when they compile, and
Numba's cache checks only the kernel's own file: after changing a value read inside a Numba kernel
(``SCATTER_COLUMN_BLOCK``, the CUDA thread counts), clear the cache (``__pycache__/*.nbi``/``*.nbc``
beside that kernel's module).
"""

# -- the executor (numflow/runtime/executor.py, plan.py) ----------------------------------------

# A unit that ran faster than this runs on the scheduling thread itself, since handing it to a pool
# thread and back costs about as much: a submit and a queue hand-off back took 66 us, measured
# with a ThreadPoolExecutor(2) on the loaded two-core machine.
INLINE_SECONDS = 50e-6

# An op with at most this many elements in every output counts as cheap (never worth a hand-off):
# a float32 square of 16K elements takes 2.6 us, against the hand-off's 66 us.
CHEAP_ELEMENTS = 1 << 14

# A plan with more costly units than this is taken to have some that can run at once, without the
# pairwise check (which grows with the square of the count) at plan build.
MAX_ORDERED_CHECK = 16

# A way of running a plan is judged by the fastest of its last this many runs (the first run each
# way left out): load only slows runs down, so the minimum of a few is what the way itself costs.
# With 3, three slow runs in a row of the faster way (0.7 ms steps of the example MLP, a hiccup of
# the machine) handed 13-42% of 1,016 steps to the slower way (0.82 ms); with 6, 4-12%.
WAY_SAMPLES = 6

# Probes of the way of running a plan found slower (run again in case the inputs or the load
# changed) are spaced to cost about this share of the plan's run time: the slower way's extra time
# over the faster's, spread over the runs between two probes. A probe every 32 runs of an LSTM
# training step of 29 ms took 0.4-1.8 s on the loaded machine, 40-190% on top of the steps' time.
PROBE_COST = 0.02

# The fewest runs between two probes, whatever the ways cost: close ways (within PROBE_COST *
# PROBE_EVERY of each other) are probed this often, as load may tip them either way.
PROBE_EVERY = 32

# The most runs between two probes, however far slower the other way: at 4096 runs, a way 60 times
# as slow still costs under 1.5%, and a plan run for a long training loop still gets another look.
PROBE_MAX_EVERY = 4096

# -- CPU kernels (numflow_kernels/parallel.py, cpu/) --------------------------------------------

# Elementwise kernels of this many elements or more run their ``parallel=True`` twin (while no run
# holds kernels to one thread each): below it the thread pool's wake-up costs more than it saves.
# Under load a parallel float32 add of 16K elements took 10.2 us against the serial twin's 1.6 us.
PARALLEL_THRESHOLD = 1 << 16

# Below this many elements a variable's assign/assign_add runs numpy's own loops, not Numba: the
# float32 add took 1.4 us in numpy and 1.9 us in Numba at 8K elements, 4.7 and 3.7 us at 32K.
NUMBA_MIN_ELEMENTS = 1 << 15

# Fills and uniform draws under this many elements run vectorized numpy Philox (same bits) while
# Numba is not loaded yet, so a small program never imports Numba: import and first run of the
# guide's first examples went from 1.45 s to about 0.3 s.
NUMPY_MAX_ELEMENTS = 1 << 12

# Bits. A matrix product of 2 * MATMUL_BLOCK_WORK multiply-adds or more is split into one-thread
# BLAS calls of about this many (about a tenth of a millisecond on one core): with BLAS's own
# threads the example MLP's step took 13-54 ms beside other work, against 1 ms with blocks.
MATMUL_BLOCK_WORK = 1 << 23

# Bits. The rows or columns of a product block at least: BLAS packs the other input once per block.
MATMUL_MIN_SPAN = 128

# Bits. A product of this many multiply-adds or more (under 2 * MATMUL_BLOCK_WORK) is split into
# blocks of MATMUL_MIN_SPAN rows or columns, which the calling thread and the helper of
# cpu/gemm_blocks.py share: an LSTM's (32, 192) x (192, 512) gates took 34-35 us so against 80 us
# whole on one core; a thread pool's hand-off (21 us a block) cost more than that saved.
MATMUL_SHARED_WORK = 1 << 20

# Scans of the block table the products' helper thread makes without finding a block before it
# parks (cpu/gemm_blocks.py): about 0.17 ms (2,000 took 0.33 ms, 20,000 4.6-5.2 ms), longer than
# the other kernels between two products of an LSTM step (70 us), short enough not to hold a core
# long from the rest of a run.
GEMM_IDLE_SPINS = 1_000

# Bits. A convolution block's patch matrix at most (4 MB): with 2 MB blocks the filter gradient of the
# MNIST CNN's second layer took 14.5 ms on one thread, with 4 MB 11.6 ms (the forward: 11 ms either way).
CONV_BLOCK_BYTES = 1 << 22

# Bits. A batch splits into at least this many convolution blocks when it has the images, so that a
# layer of small images (the MNIST CNN's first, 78 KB of patches each) still spreads over the cores.
CONV_MIN_BLOCKS = 4

# Bits. Batch norm's statistics are summed over blocks of rows of about this many elements, merged in
# block order, so the parallel twin gives the serial one's bits; set, not measured.
BATCH_NORM_BLOCK_ELEMENTS = 1 << 14

# The columns one task of a parallel scatter owns, so that a block's rows stay in the cache and each
# element still sees its updates in index order; a scatter narrower than two blocks runs serially.
SCATTER_COLUMN_BLOCK = 256

# The numpy reference convolution builds its im2col matrix for as many images as fit in this many
# bytes at a time: a memory bound (the whole matrix for the MNIST CNN's second layer was 31 MB at
# batch 50), not a speed setting.
REFERENCE_IM2COL_BYTES = 64 << 20

# -- CUDA kernels (numflow_kernels/cuda/), not timed: the project's machine has no GPU --------------

# Threads per block of the grid-stride initializer kernels.
CUDA_INIT_THREADS = 256

# The most blocks a grid-stride kernel launches (initializers, elementwise, batch norm's
# elementwise part); its loop covers the rest.
CUDA_MAX_BLOCKS = 1024

# Threads per block of the elementwise kernels.
CUDA_ELEMENTWISE_THREADS = 256

# Bits. Threads per block of batch norm's per-channel reductions: the tree of the block's sum.
CUDA_BATCH_NORM_THREADS = 128
