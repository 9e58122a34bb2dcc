"""The graphs behind ``data/tf_distributions_golden.npz``, written once for both engines: each case builds a
``tf.distributions`` distribution from the ``tf`` module (TensorFlow's compat.v1 when the golden file is made,
numflow in the tests) and returns the tensors to fetch: samples (seeded; each fetched ``RUNS`` times), densities,
statistics, shapes and gradients. ``run_case`` gives their values and, as names, each tensor's name, dtype and
static shape (a gradient's: its dtype and static shape)."""

import numpy as np

RUNS = 2
_RNG = np.random.RandomState(5)
LOC = _RNG.randn(2, 3).astype(np.float32)
SCALE = _RNG.uniform(0.5, 2.0, (3,)).astype(np.float32)
X = _RNG.randn(4, 2, 3).astype(np.float32)
LOGITS = _RNG.randn(2, 4).astype(np.float32)
PROBS = np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], np.float32)
POSITIVE = _RNG.uniform(0.5, 3.0, (2, 3)).astype(np.float32)
UNIT = _RNG.uniform(0.05, 0.95, (4, 2, 3)).astype(np.float32)
EVENTS = (_RNG.uniform(size=(3, 2, 4)) > 0.5).astype(np.int32)


def _stats(d, methods=("entropy", "mean", "stddev", "variance", "mode")):
    return [getattr(d, m)() for m in methods]


def _shapes(d):
    return [d.batch_shape_tensor(), d.event_shape_tensor()]


def _grads(tf, y, xs):
    return tf.gradients(tf.reduce_sum(y), xs)


def _normal(tf):
    loc, scale = tf.constant(LOC), tf.constant(SCALE)
    d = tf.distributions.Normal(loc=loc, scale=scale)
    sample = d.sample(seed=3)
    samples = d.sample([4, 5], seed=4)
    log_prob = d.log_prob(X)
    return ([sample, samples, log_prob, d.prob(X), d.cdf(X * 4), d.log_cdf(X * 4), d.survival_function(X),
             d.log_survival_function(X * 4), d.quantile(UNIT)] + _stats(d) + _shapes(d)
            + _grads(tf, log_prob, [loc, scale]) + _grads(tf, samples, [loc, scale]))


def _normal_float64(tf):
    d = tf.distributions.Normal(loc=LOC.astype(np.float64), scale=np.float64(2.0), name="Gauss")
    x = X.astype(np.float64)
    return [d.sample(3, seed=7), d.log_prob(x), d.cdf(x * 6), d.log_cdf(x * 6)] + _stats(d) + _shapes(d)


def _bernoulli(tf):
    logits = tf.constant(LOGITS)
    d = tf.distributions.Bernoulli(logits=logits)
    log_prob = d.log_prob(EVENTS)
    return ([d.sample(seed=2), d.sample(6, seed=5), log_prob, d.prob(1), d.probs, d.logits] + _stats(d)
            + _shapes(d) + _grads(tf, log_prob, [logits]))


def _bernoulli_probs(tf):
    probs = tf.constant(PROBS)
    d = tf.distributions.Bernoulli(probs=probs, dtype=tf.float32)
    log_prob = d.log_prob([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])
    return [d.sample([2, 3], seed=8), log_prob, d.logits] + _stats(d) + _grads(tf, log_prob, [probs])


def _categorical(tf):
    logits = tf.constant(LOGITS)
    d = tf.distributions.Categorical(logits=logits)
    log_prob = d.log_prob([[0, 3], [2, 2], [1, 0]])
    return ([d.sample(seed=6), d.sample([3, 2], seed=9), log_prob, d.prob([1, 2]), d.cdf([2, 4]), d.probs,
             d.event_size] + _stats(d, ("entropy", "mode")) + _shapes(d) + _grads(tf, log_prob, [logits]))


def _categorical_probs(tf):
    d = tf.distributions.Categorical(probs=np.stack([PROBS, PROBS[::-1]]), dtype=tf.int64)
    return [d.sample(5, seed=10), d.log_prob(2), d.logits, d.entropy(), d.mode()] + _shapes(d)


def _uniform(tf):
    low, high = tf.constant(LOC), tf.constant(LOC + POSITIVE)
    d = tf.distributions.Uniform(low=low, high=high)
    samples = d.sample(4, seed=11)
    return ([samples, d.log_prob(X), d.prob(LOC + 0.5), d.cdf(X), d.range()] + _stats(d, ("entropy", "mean",
            "stddev", "variance")) + _shapes(d) + _grads(tf, samples, [low, high]))


def _exponential(tf):
    rate = tf.constant(POSITIVE)
    d = tf.distributions.Exponential(rate=rate)
    log_prob = d.log_prob(UNIT * 2)
    return ([d.sample(3, seed=12), log_prob, d.log_survival_function(UNIT), d.survival_function(UNIT), d.cdf(UNIT)]
            + _stats(d) + _shapes(d) + _grads(tf, log_prob, [rate]))


def _laplace(tf):
    loc, scale = tf.constant(LOC), tf.constant(SCALE)
    d = tf.distributions.Laplace(loc=loc, scale=scale)
    samples = d.sample(3, seed=13)
    log_prob = d.log_prob(X)
    return ([samples, log_prob, d.cdf(X), d.log_cdf(X), d.log_survival_function(X)] + _stats(d) + _shapes(d)
            + _grads(tf, log_prob, [loc, scale]) + _grads(tf, samples, [loc, scale]))


def _gamma(tf):
    concentration, rate = tf.constant(POSITIVE), tf.constant(SCALE)
    d = tf.distributions.Gamma(concentration=concentration, rate=rate)
    log_prob = d.log_prob(UNIT * 3)
    samples = d.sample(3, seed=14)
    cdf = d.cdf(UNIT * 3)
    return ([samples, log_prob, cdf] + _stats(d) + _shapes(d) + _grads(tf, log_prob, [concentration, rate])
            + _grads(tf, samples, [concentration, rate]) + _grads(tf, cdf, [concentration, rate]))


def _beta(tf):
    c1, c0 = tf.constant(POSITIVE), tf.constant(SCALE)
    d = tf.distributions.Beta(concentration1=c1, concentration0=c0)
    log_prob = d.log_prob(UNIT)
    same_shapes = tf.distributions.Beta(POSITIVE, POSITIVE[::-1])  # TensorFlow's Betainc does not broadcast
    return ([d.sample(3, seed=15), d.sample(2, seed=None), log_prob, d.total_concentration,
             same_shapes.cdf(UNIT[0]), same_shapes.log_cdf(UNIT[1])] + _stats(d)
            + _shapes(d) + _grads(tf, log_prob, [c1, c0]))


def _dirichlet(tf):
    concentration = tf.constant(POSITIVE)
    d = tf.distributions.Dirichlet(concentration)
    x = UNIT / UNIT.sum(-1, keepdims=True)
    log_prob = d.log_prob(x)
    return ([d.sample(4, seed=16), log_prob, d.covariance()] + _stats(d, ("entropy", "mean", "variance"))
            + _shapes(d) + _grads(tf, log_prob, [concentration]))


def _student_t(tf):
    df, loc, scale = tf.constant(POSITIVE * 2), tf.constant(LOC), tf.constant(SCALE)
    d = tf.distributions.StudentT(df=df, loc=loc, scale=scale)
    log_prob = d.log_prob(X)
    return ([d.sample(3, seed=17), log_prob, d.cdf(X[0])] + _stats(d) + _shapes(d)
            + _grads(tf, log_prob, [df, loc, scale]))


def _multinomial(tf):
    logits = tf.constant(LOGITS[:, :3])
    d = tf.distributions.Multinomial(total_count=[4.0, 6.0], logits=logits)
    counts = np.array([[1.0, 2.0, 1.0], [0.0, 6.0, 0.0]], np.float32)
    log_prob = d.log_prob(counts)
    # One distribution samples: TensorFlow's draws for a batch depend on the order its while loop happens to
    # run the batch's iterations in (each reserves its share of one Philox stream).
    single = tf.distributions.Multinomial(total_count=5.0, logits=LOGITS[:1, :3], name="Single")
    return ([single.sample(2, seed=18), single.sample([2, 2], seed=19), log_prob, d.prob(counts), d.covariance()]
            + _stats(d, ("mean", "variance"))
            + _shapes(d) + _grads(tf, log_prob, [logits]))


def _dirichlet_multinomial(tf):
    concentration = tf.constant(POSITIVE)
    d = tf.distributions.DirichletMultinomial(5.0, concentration)
    counts = np.array([[1.0, 3.0, 1.0], [0.0, 0.0, 5.0]], np.float32)
    log_prob = d.log_prob(counts)
    return ([d.sample(3, seed=20), log_prob, d.prob(counts), d.covariance()] + _stats(d, ("mean", "variance"))
            + _shapes(d) + _grads(tf, log_prob, [concentration]))


def _kl(tf):
    pairs = [
        (tf.distributions.Normal(LOC, SCALE), tf.distributions.Normal(0.0, 1.5)),
        (tf.distributions.Bernoulli(logits=LOGITS), tf.distributions.Bernoulli(probs=0.3)),
        (tf.distributions.Categorical(logits=LOGITS), tf.distributions.Categorical(logits=LOGITS[::-1])),
        (tf.distributions.Gamma(POSITIVE, SCALE), tf.distributions.Gamma(SCALE, POSITIVE)),
        (tf.distributions.Beta(POSITIVE, SCALE), tf.distributions.Beta(SCALE, POSITIVE)),
        (tf.distributions.Dirichlet(POSITIVE), tf.distributions.Dirichlet(POSITIVE[::-1])),
        (tf.distributions.Exponential(POSITIVE), tf.distributions.Gamma(POSITIVE, SCALE)),
    ]
    kls = [tf.distributions.kl_divergence(a, b) for a, b in pairs]
    normal_a, normal_b = pairs[0]
    return kls + [normal_a.kl_divergence(normal_b), normal_a.cross_entropy(normal_b),
                  tf.distributions.kl_divergence(normal_a, normal_b, allow_nan_stats=False, name="checked")]


CASES = {
    "normal": _normal, "normal_float64": _normal_float64, "bernoulli": _bernoulli,
    "bernoulli_probs": _bernoulli_probs, "categorical": _categorical, "categorical_probs": _categorical_probs,
    "uniform": _uniform, "exponential": _exponential, "laplace": _laplace, "gamma": _gamma, "beta": _beta,
    "dirichlet": _dirichlet, "student_t": _student_t, "multinomial": _multinomial,
    "dirichlet_multinomial": _dirichlet_multinomial, "kl": _kl,
}


def _static(t):
    return "?" if t.shape.ndims is None else str([d if d is not None else -1 for d in t.shape.as_list()])


def run_case(tf, name, graph_seed=1):
    """The values of case ``name`` (a sample's over ``RUNS`` runs, stacked) and each tensor's name, dtype and
    static shape."""
    with tf.Graph().as_default():
        tf.set_random_seed(graph_seed)
        tensors = CASES[name](tf)
        with tf.Session() as sess:
            runs = [sess.run(tensors) for _ in range(RUNS)]
    values = [np.stack([run[i] for run in runs]) for i in range(len(tensors))]
    # A gradient's op names are each engine's own.
    return values, [f"{'gradient' if t.name.startswith('gradients') else t.name} {t.dtype.name} {_static(t)}"
                    for t in tensors]
