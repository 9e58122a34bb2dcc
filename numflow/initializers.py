"""``tf.initializers``: the initializer classes under their short names."""

from numflow.ops.init_ops import (  # noqa: F401
    Constant as constant,
)
from numflow.ops.init_ops import (
    GlorotNormal as glorot_normal,
)
from numflow.ops.init_ops import (
    GlorotUniform as glorot_uniform,
)
from numflow.ops.init_ops import (
    Identity as identity,
)
from numflow.ops.init_ops import (
    Ones as ones,
)
from numflow.ops.init_ops import (
    Orthogonal as orthogonal,
)
from numflow.ops.init_ops import (
    RandomNormal as random_normal,
)
from numflow.ops.init_ops import (
    RandomUniform as random_uniform,
)
from numflow.ops.init_ops import (
    TruncatedNormal as truncated_normal,
)
from numflow.ops.init_ops import (
    UniformUnitScaling as uniform_unit_scaling,
)
from numflow.ops.init_ops import (
    VarianceScaling as variance_scaling,
)
from numflow.ops.init_ops import (
    Zeros as zeros,
)
from numflow.ops.init_ops import (
    he_normal,
    he_uniform,
    lecun_normal,
    lecun_uniform,
)
from numflow.variables.variable import global_variables_initializer as global_variables  # noqa: F401
from numflow.variables.variable import local_variables_initializer as local_variables  # noqa: F401
from numflow.variables.variable import tables_initializer  # noqa: F401
from numflow.variables.variable import variables_initializer as variables  # noqa: F401
