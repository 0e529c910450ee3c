"""A stand-in for numpy, used only in Kostka's static site. It is NOT numpy.

Bokeh and Panel import numpy unconditionally, but with the plain Python lists Kostka hands
them they only ask "is this a numpy array / scalar / datetime?" and build a few constants
(``np.dtype(np.float32)``, ``np.datetime64(0, 'ms')``) at import. These classes answer every
such question with "no". Without numpy the site needs no shared library at all, so the worker
can keep a memory snapshot of the interpreter with Panel imported, and a first visit
downloads and compiles 3 MB less. Any other use of numpy fails loudly with a clear message.
"""

__version__ = "0+kostka.standin"
__kostka_standin__ = True


class _NotNumpy:
    def __init__(self, *args, **kwargs):
        raise TypeError(f"numpy is not available in Kostka's static site ({type(self).__name__})")


class ndarray(_NotNumpy):
    pass


class generic(_NotNumpy):
    pass


class number(generic):
    pass


class integer(number):
    pass


class signedinteger(integer):
    pass


class unsignedinteger(integer):
    pass


class inexact(number):
    pass


class floating(inexact):
    pass


class complexfloating(inexact):
    pass


class bool_(generic):
    pass


class str_(generic):
    pass


class bytes_(generic):
    pass


class object_(generic):
    pass


class _Constant(generic):
    """Constructible, so that module-level constants can be built; equal to nothing else."""

    def __init__(self, *args):
        self.args = args

    def __repr__(self):
        return f"{type(self).__name__}{self.args!r}"


class datetime64(_Constant):
    pass


class timedelta64(_Constant):
    pass


def _scalar(name, base):
    cls = type(name, (base,), {"__module__": __name__})
    globals()[name] = cls
    return cls


for _name in ("int8", "int16", "int32", "int64"):
    _scalar(_name, signedinteger)
for _name in ("uint8", "uint16", "uint32", "uint64"):
    _scalar(_name, unsignedinteger)
for _name in ("float16", "float32", "float64"):
    _scalar(_name, floating)
for _name in ("complex64", "complex128"):
    _scalar(_name, complexfloating)
del _name


class dtype:
    """Only what Bokeh builds at import: a set of the dtypes it sends as binary arrays."""

    def __init__(self, kind, *args, **kwargs):
        self.type = kind
        self.name = getattr(kind, "__name__", str(kind))

    def __eq__(self, other):
        return isinstance(other, dtype) and other.type is self.type

    def __hash__(self):
        return hash(self.type)

    def __repr__(self):
        return f"dtype({self.name!r})"


def __getattr__(name):
    raise AttributeError(
        f"numpy.{name} is not available in Kostka's static site (a stand-in that only answers isinstance questions)"
    )
