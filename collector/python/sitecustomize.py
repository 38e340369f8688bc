# steplint's Python import hook: `steplint record` puts this directory first on PYTHONPATH, so
# Python imports it at start-up (site.py imports `sitecustomize`). It changes nothing in the
# program; once the program imports torch it records the settings the rules read, as trace
# metadata of the collector that libsteplint_preload.so started at `import torch`:
#
#   dataloader_workers, dataloader_pin_memory, dataloader_batch_size,
#   dataloader_persistent_workers   the first DataLoader the program iterates (SL101, SL102, SL403)
#   cudnn_benchmark                 torch.backends.cudnn.benchmark once training runs (SL304)
#   autocast_enabled, autocast_dtype  whether an autocast region was entered, and its dtype
#   world_size, local_world_size    torch.distributed, once initialised
#   distributed_backend             its backend ("nccl", "gloo"): the collector wrote distributedInfo
#                                   before the program chose one; the importer fills it in from here
#
# With STEPLINT_MODULES=1 (`steplint record --modules`) it also opens a range around every
# nn.Module forward (_ModuleRanges), which eager modules do not emit themselves.
#
# A child started by multiprocessing's spawn (DataLoader workers, torch.multiprocessing.spawn)
# records only once its init_process_group makes it one of several ranks: it then starts the
# collector through the preload, as rank STEPLINT_RANK of STEPLINT_WORLD_SIZE. A child forked
# from a recording process (DataLoader workers, ranks started with fork) records nothing, until
# the same call makes it a rank: it then starts its own session (steplint_start_forked_rank).
#
# Rules: nothing here may raise into the program or slow its steps (one dictionary check per
# DataLoader iteration and autocast entry); every failure turns the hook off silently. A
# sitecustomize the environment already had (Debian's, a venv's) still runs: it is chained.
import os
import sys

_HOOK_DIR = os.path.dirname(os.path.abspath(__file__))
_STARTUP_PID = os.getpid()  # a process forked later (a fork server's child) has another


def _chain_existing_sitecustomize():
    """Runs the sitecustomize that this one shadows, if there is one."""
    import importlib.machinery
    import importlib.util

    others = [p for p in sys.path if os.path.abspath(p or ".") != _HOOK_DIR]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", others)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


class _Recorder:
    """Writes metadata and ranges through the C API of the collector the preload loaded
    (collector.h)."""

    def __init__(self):
        import ctypes

        path = os.environ.get("STEPLINT_COLLECTOR_LIB", "")
        # RTLD_NOLOAD: only the collector already in the process (loaded when it matched the
        # torch); never load one here, it may be built against another torch.
        lib = ctypes.CDLL(path, mode=os.RTLD_NOLOAD | ctypes.RTLD_GLOBAL)
        self._annotate = lib.steplint_annotate_json
        self._annotate.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        self._annotate.restype = None
        self.range_begin = lib.steplint_range_begin
        self.range_begin.argtypes = [ctypes.c_char_p, ctypes.c_int]
        self.range_begin.restype = ctypes.c_uint64
        self.range_end = lib.steplint_range_end
        self.range_end.argtypes = [ctypes.c_uint64]
        self.range_end.restype = None
        self.start_forked_rank = lib.steplint_start_forked_rank
        self.start_forked_rank.restype = ctypes.c_int
        self.stop = lib.steplint_stop
        self.stop.restype = ctypes.c_int
        self.is_recording = lib.steplint_is_recording
        self.is_recording.restype = ctypes.c_int

    def set(self, key, value):
        import json

        self._annotate(key.encode(), json.dumps(value).encode())


def _dataloader_settings(loader):
    batch_size = getattr(loader, "batch_size", None)
    if batch_size is None:  # a batch_sampler decides the batch
        batch_size = getattr(getattr(loader, "batch_sampler", None), "batch_size", None)
    settings = {
        "dataloader_workers": getattr(loader, "num_workers", None),
        "dataloader_pin_memory": getattr(loader, "pin_memory", None),
        "dataloader_persistent_workers": getattr(loader, "persistent_workers", None),
    }
    if isinstance(batch_size, int):
        settings["dataloader_batch_size"] = batch_size
    return {k: v for k, v in settings.items() if v is not None}


def _runtime_settings(torch, autocast):
    settings = {"cudnn_benchmark": bool(torch.backends.cudnn.benchmark)}
    settings["autocast_enabled"] = autocast["dtype"] is not None
    if autocast["dtype"] is not None:
        settings["autocast_dtype"] = autocast["dtype"]
    dist = getattr(torch, "distributed", None)
    # With WORLD_SIZE set (torchrun) the collector writes world_size itself (trace_sink.cpp).
    if dist is not None and dist.is_available() and dist.is_initialized():
        settings["distributed_backend"] = str(dist.get_backend())
        if "WORLD_SIZE" not in os.environ:
            settings["world_size"] = dist.get_world_size()
    local = os.environ.get("LOCAL_WORLD_SIZE", "")
    if local.isdigit():
        settings["local_world_size"] = int(local)
    return settings


def _write(recorder, settings):
    for key, value in settings.items():
        recorder.set(key, value)


class _ModuleRanges:
    """`steplint record --modules`: a range `nn.Module: <path> (<class>)` around every module's
    forward, from torch's global forward hooks (the root module's path is its class name).

    A forward that raised never runs its post-hook: the next post-hook of an enclosing module
    ends it too (a range token ends the ranges opened inside it, api.cpp)."""

    def __init__(self, torch, recorder):
        import threading
        import weakref

        self._recorder = recorder
        self._names = weakref.WeakKeyDictionary()  # module -> encoded range name
        self._local = threading.local()  # .open: [(id(module), token)], innermost last
        hooks = torch.nn.modules.module
        hooks.register_module_forward_pre_hook(self._pre)
        hooks.register_module_forward_hook(self._post)

    def _name(self, module):
        name = self._names.get(module)
        if name is None:  # first seen as the outermost call: name it and everything below it
            root = type(module).__name__
            for path, sub in module.named_modules():
                if sub not in self._names:
                    label = f"{root}.{path} ({type(sub).__name__})" if path else root
                    self._names[sub] = ("nn.Module: " + label).encode()
            name = self._names[module]
        return name

    def _pre(self, module, inputs):
        open_ranges = getattr(self._local, "open", None)
        if open_ranges is None:
            open_ranges = self._local.open = []
        token = 0  # 0: not capturing now (a schedule's wait), or the name failed
        try:
            token = self._recorder.range_begin(self._name(module), 0)
        except Exception:
            pass
        open_ranges.append((id(module), token))  # always: the post-hook pops its own entry

    def _post(self, module, inputs, output):
        open_ranges = getattr(self._local, "open", None)
        key = id(module)
        while open_ranges:
            entry_key, token = open_ranges.pop()
            if entry_key == key:
                if token:
                    self._recorder.range_end(token)
                return


def _instrument(torch, recorder):
    """Wraps DataLoader.__iter__ and autocast.__enter__; writes the run settings at exit."""
    import atexit

    if os.environ.get("STEPLINT_MODULES") == "1":
        try:
            _ModuleRanges(torch, recorder)
        except Exception:
            pass  # a torch without global module hooks: the settings below still count
    autocast = {"dtype": None}
    # The process that saw its first loader: a rank forked from this one writes its own settings.
    state = {"loader_seen_by": None}

    loader_class = torch.utils.data.DataLoader
    original_iter = loader_class.__iter__

    def __iter__(self):
        if state["loader_seen_by"] != os.getpid():
            state["loader_seen_by"] = os.getpid()
            try:
                # The first loader iterated is the training loader in the usual loop; a
                # validation loader made earlier but iterated later does not replace it.
                _write(recorder, _dataloader_settings(self))
                _write(recorder, _runtime_settings(torch, autocast))
            except Exception:
                pass
        return original_iter(self)

    loader_class.__iter__ = __iter__

    autocast_class = getattr(torch, "autocast", None)
    if autocast_class is not None:
        original_enter = autocast_class.__enter__

        def __enter__(self):
            if autocast["dtype"] is None and getattr(self, "_enabled", False):
                autocast["dtype"] = str(getattr(self, "fast_dtype", ""))
            return original_enter(self)

        autocast_class.__enter__ = __enter__

    def at_exit():  # the final values: the flags may be set after the first batch
        try:
            _write(recorder, _runtime_settings(torch, autocast))
        except Exception:
            pass
        # A run stopped by Ctrl-C ends with Python sending itself SIGINT after finalization,
        # which skips the C exit handler that finishes the trace: finish it here instead.
        if _ended_by_keyboard_interrupt():
            recorder.stop()

    atexit.register(at_exit)
    _finish_at_os_exit(recorder, at_exit)
    _record_forked_ranks(torch, recorder, at_exit)
    return recorder, at_exit


def _finish_at_os_exit(recorder, write_final_settings):
    """os._exit() ends the process without atexit handlers, ours and the collector's included: a
    program that ends with it (to skip a slow teardown or a hung process group) left an
    unfinished trace. The wrapper finishes the trace first, in a process that records: a forked
    DataLoader worker also ends in os._exit() and records nothing."""
    original = os._exit

    def _exit(status):
        try:
            if recorder.is_recording():
                write_final_settings()
                recorder.stop()
        except Exception:
            pass
        original(status)

    os._exit = _exit


def _ended_by_keyboard_interrupt():
    """True in an atexit handler when the program ends on an uncaught KeyboardInterrupt."""
    last = getattr(sys, "last_exc", None)  # Python 3.12+; sys.last_type before
    if last is None:
        last = getattr(sys, "last_value", None)
    return isinstance(last, KeyboardInterrupt)


def _stop_before_os_exit(recorder, write_final_settings):
    """A multiprocessing child ends in os._exit(), which runs no atexit handler (ours included),
    but first runs multiprocessing's finalizers: this one, with the lowest priority, runs last."""
    import multiprocessing.util

    def stop():
        write_final_settings()
        recorder.stop()

    multiprocessing.util.Finalize(None, stop, exitpriority=-(2**30))


def _after_init_process_group(torch, then):
    """Wraps init_process_group so that `then(dist)` runs after each call (never raising)."""
    import functools

    dist = getattr(torch, "distributed", None)
    if dist is None or not dist.is_available():
        return
    original = dist.init_process_group

    @functools.wraps(original)
    def init_process_group(*args, **kwargs):
        result = original(*args, **kwargs)
        try:
            then(dist)
        except Exception:
            pass
        return result

    dist.init_process_group = init_process_group
    dist.distributed_c10d.init_process_group = init_process_group


def _claim_rank(dist):
    """Tells the collector this process's rank. It reads these instead of RANK / WORLD_SIZE
    (collector/src/config.cpp): the program's own environment stays as it was."""
    os.environ["STEPLINT_RANK"] = str(dist.get_rank())
    os.environ["STEPLINT_WORLD_SIZE"] = str(dist.get_world_size())


def _record_forked_ranks(torch, recorder, write_final_settings):
    """A rank forked from this process (start_method "fork") records on its own once it joins a
    group of several ranks. The fork gave it this process's collector with nothing running
    (collector/src/session.h); it starts host side only."""
    recording_pid = os.getpid()

    def start_forked_rank(dist):
        if os.getpid() == recording_pid or dist.get_world_size() < 2:
            return
        _claim_rank(dist)
        if recorder.start_forked_rank() == 0:
            _stop_before_os_exit(recorder, write_final_settings)

    _after_init_process_group(torch, start_forked_rank)


class _TorchImportWatcher:
    """A meta path finder that runs `on_import(torch)` once `import torch` has finished."""

    def __init__(self, on_import):
        self._on_import = on_import

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        try:
            sys.meta_path.remove(self)
        except ValueError:
            return None
        import importlib.util

        spec = importlib.util.find_spec(name)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        original_exec = loader.exec_module
        on_import = self._on_import

        def exec_module(module):
            original_exec(module)
            try:
                on_import(module)
            except Exception:
                pass  # no collector in this process (not recording, torch mismatch): stay out

        loader.exec_module = exec_module
        return spec


def _start_as_rank(torch):
    """Starts recording in a spawn child, or a fork server's child, that has just joined a
    process group of several ranks."""
    dist = torch.distributed
    if os.environ.get("STEPLINT_RECORD") == "1" or dist.get_world_size() < 2:
        return
    import ctypes

    _claim_rank(dist)
    os.environ["STEPLINT_RECORD"] = "1"  # this rank's own spawn children defer in turn
    # The preload (LD_PRELOAD, so its symbols are global) loads the collector after the same
    # torch check as at `import torch`; it never loads one built against another torch.
    if ctypes.CDLL(None).steplint_preload_start() != 0:
        os.environ["STEPLINT_RECORD"] = "0"
        return
    _stop_before_os_exit(*_instrument(torch, _Recorder()))


def _defer_to_process_group(torch):
    """A spawn child records once its init_process_group proves it a rank."""
    _after_init_process_group(torch, lambda dist: _start_as_rank(torch))


def _instrument_or_defer(torch):
    """Instruments the process whose `import torch` started the collector. A process forked
    after Python started, from one that had not imported torch (a fork server's child: DataLoader
    workers or ranks started with forkserver), has no collector: the preload never starts one in
    a forked child at `import torch`. Like a spawn child, it records once init_process_group
    makes it one of several ranks."""
    try:
        recorder = _Recorder()  # OSError: no collector loaded in this process
    except OSError:
        if os.getpid() != _STARTUP_PID:
            os.environ["STEPLINT_RECORD"] = "0"
            _defer_to_process_group(torch)
        return
    _instrument(torch, recorder)


def _install():
    if os.environ.get("STEPLINT_RECORD") != "1" or "torch" in sys.modules:
        return
    if "--multiprocessing-fork" in sys.argv:
        # A multiprocessing child started by spawn re-imports torch: a DataLoader worker, which
        # must not start a second recording, or a rank of torch.multiprocessing.spawn, which
        # has no RANK in its environment. Recording waits for init_process_group to tell.
        os.environ["STEPLINT_RECORD"] = "0"
        sys.meta_path.insert(0, _TorchImportWatcher(_defer_to_process_group))
        return
    sys.meta_path.insert(0, _TorchImportWatcher(_instrument_or_defer))


try:
    _install()
except Exception:
    pass
try:
    _chain_existing_sitecustomize()
except Exception:
    # The shadowed sitecustomize failed: Python would have printed its error and gone on.
    import traceback

    traceback.print_exc()
