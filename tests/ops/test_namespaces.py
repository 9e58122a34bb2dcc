"""tf.linalg, tf.random, tf.debugging, tf.dtypes, tf.strings, tf.signal and tf.spectral: every name numflow
gives them is one TensorFlow's ``tf.compat.v1`` has there (the lists below are TF 2.21's), and the top-level
names TF1 programs use for the same functions are the same functions."""

import numflow as tf

TF_NAMES = {
    "linalg": """adjoint band_part cholesky cholesky_solve cross det diag diag_part eigh eigh_tridiagonal eigvalsh
        einsum expm eye global_norm inv l2_normalize logdet logm lstsq lu lu_matrix_inverse lu_reconstruct lu_solve
        matmul matrix_rank matrix_transpose matvec norm normalize pinv qr set_diag slogdet solve sqrtm svd tensor_diag
        tensor_diag_part tensordot trace transpose triangular_solve tridiagonal_matmul tridiagonal_solve""",
    "random": """all_candidate_sampler categorical create_rng_state experimental fixed_unigram_candidate_sampler fold_in
        gamma get_global_generator get_seed learned_unigram_candidate_sampler log_uniform_candidate_sampler
        multinomial normal poisson set_global_generator set_random_seed shuffle split stateless_binomial
        stateless_categorical stateless_gamma stateless_multinomial stateless_normal
        stateless_parameterized_truncated_normal stateless_poisson stateless_truncated_normal stateless_uniform
        truncated_normal uniform uniform_candidate_sampler""",
    "debugging": """Assert assert_all_finite assert_equal assert_greater assert_greater_equal assert_integer assert_less
        assert_less_equal assert_near assert_negative assert_non_negative assert_non_positive assert_none_equal
        assert_positive assert_proper_iterable assert_rank assert_rank_at_least assert_rank_in assert_same_float_dtype
        assert_scalar assert_shapes assert_type check_numerics disable_check_numerics enable_check_numerics
        get_log_device_placement is_finite is_inf is_nan is_non_decreasing is_numeric_tensor is_strictly_increasing
        set_log_device_placement""",
    "dtypes": """DType QUANTIZED_DTYPES as_dtype as_string bfloat16 bool cast complex complex128 complex64 double
        float16 float32 float64 half int16 int32 int64 int8 qint16 qint32 qint8 quint16 quint8 resource saturate_cast
        string uint16 uint32 uint64 uint8 variant""",
    "strings": """as_string bytes_split format join length lower ngrams reduce_join regex_full_match regex_replace split
        strip substr to_hash_bucket to_hash_bucket_fast to_hash_bucket_strong to_number unicode_decode upper""",
    "signal": """dct fft fft2d fft3d fftnd fftshift frame hamming_window hann_window idct ifft ifft2d ifft3d ifftnd
        ifftshift inverse_mdct inverse_stft inverse_stft_window_fn irfft irfft2d irfft3d irfftnd
        kaiser_bessel_derived_window kaiser_window linear_to_mel_weight_matrix mdct mfccs_from_log_mel_spectrograms
        overlap_and_add rfft rfft2d rfft3d rfftnd stft vorbis_window""",
    "spectral": "dct fft fft2d fft3d idct ifft ifft2d ifft3d irfft irfft2d irfft3d rfft rfft2d rfft3d",
}

# The same function under a top-level name (TF1 spelling) and a namespace name.
ALIASES = [
    ("linalg", "inv", "matrix_inverse"), ("linalg", "det", "matrix_determinant"),
    ("linalg", "diag", "matrix_diag"), ("linalg", "band_part", "matrix_band_part"),
    ("linalg", "solve", "matrix_solve"), ("linalg", "trace", "trace"),
    ("linalg", "triangular_solve", "matrix_triangular_solve"), ("linalg", "tensor_diag", "diag"),
    ("random", "shuffle", "random_shuffle"), ("random", "gamma", "random_gamma"),
    ("random", "poisson", "random_poisson"), ("random", "normal", "random_normal"),
    ("random", "uniform", "random_uniform"), ("random", "multinomial", "multinomial"),
    ("debugging", "assert_all_finite", "verify_tensor_all_finite"), ("debugging", "Assert", "Assert"),
    ("debugging", "check_numerics", "check_numerics"), ("dtypes", "as_string", "as_string"),
    ("dtypes", "cast", "cast"), ("strings", "join", "string_join"), ("dtypes", "complex", "complex"),
    ("signal", "fft", "fft"), ("signal", "ifft3d", "ifft3d"), ("spectral", "fft2d", "fft2d"), ("math", "conj", "conj"),
    ("math", "real", "real"), ("math", "imag", "imag"), ("math", "angle", "angle"),
    ("sparse", "transpose", "sparse_transpose"), ("sparse", "softmax", "sparse_softmax"),
    ("sparse", "reset_shape", "sparse_reset_shape"), ("sparse", "merge", "sparse_merge"),
    ("sparse", "to_indicator", "sparse_to_indicator"), ("sparse", "mask", "sparse_mask"),
    ("sparse", "matmul", "sparse_tensor_dense_matmul"), ("io", "serialize_tensor", "serialize_tensor"),
    ("io", "parse_tensor", "parse_tensor"), ("io", "parse_single_sequence_example", "parse_single_sequence_example"),
]
SAMPLERS = ("all_candidate_sampler", "fixed_unigram_candidate_sampler", "learned_unigram_candidate_sampler",
            "log_uniform_candidate_sampler", "uniform_candidate_sampler")


def test_every_name_is_tensorflows():
    assert set(tf.spectral.__all__) == set(TF_NAMES["spectral"].split())
    for namespace, names in TF_NAMES.items():
        ours = set(getattr(tf, namespace).__all__)
        assert ours <= set(names.split()), (namespace, sorted(ours - set(names.split())))


def test_aliases_are_one_function():
    for namespace, name, top in ALIASES:
        assert getattr(getattr(tf, namespace), name) is getattr(tf, top), (namespace, name, top)
    for name in SAMPLERS:
        assert getattr(tf.random, name) is getattr(tf.nn, name), name


def test_the_top_level_names_tf1_programs_use():
    names = """arg_max arg_min boolean_mask check_numerics cholesky count_nonzero cumprod cumsum diag diag_part einsum
        eye floor_div gather_nd is_finite is_inf is_nan lin_space linspace matrix_band_part matrix_determinant
        matrix_diag matrix_diag_part matrix_inverse matrix_set_diag matrix_solve matrix_transpose meshgrid multinomial
        norm random_gamma random_poisson random_shuffle reduce_logsumexp reverse reverse_sequence reverse_v2
        scatter_nd segment_max segment_mean segment_min segment_prod segment_sum sequence_mask tensor_scatter_add
        tensor_scatter_nd_add tensor_scatter_nd_update tensordot trace truncatediv truncatemod unsorted_segment_max
        unsorted_segment_mean unsorted_segment_min unsorted_segment_prod unsorted_segment_sqrt_n Print print Assert
        assert_equal assert_less assert_rank verify_tensor_all_finite as_string string_join app flags logging compat
        test complex complex64 complex128 real imag conj angle to_complex64 to_complex128 fft ifft fft2d ifft2d fft3d
        ifft3d signal spectral""".split()
    assert [n for n in names if not hasattr(tf, n)] == []
