r"""Validates API request parameters against botocore's full service model.

The model (``botocore/data/<service>/<version>/service-2.json``) carries every member's type, required flag,
enum, min/max (length, count or value) and pattern. The service matches patterns against the whole value, so
they are applied with ``fullmatch`` (the ``regex`` module reads their Java-style ``\p{..}`` classes). Unknown
members are errors too: the service rejects them.

Command line: ``python3 sagemaker_model.py OPERATION < request.json`` prints one problem per line and exits 1
if there is any (the service is ``sagemaker`` unless ``--service NAME`` is given).
"""
import json
import sys

import botocore.loaders
import botocore.model
import regex  # Java-style classes such as \p{L} and \p{Alnum}; installed with cfn-lint

_MODELS = {}


def operation_model(service, operation):
    if service not in _MODELS:
        loader = botocore.loaders.Loader()
        _MODELS[service] = botocore.model.ServiceModel(loader.load_service_model(service, "service-2"), service)
    return _MODELS[service].operation_model(operation)


def validate(operation, params, service="sagemaker"):
    """Returns the problems of ``params`` as input of ``operation``, each naming the member path."""
    problems = []
    _check(operation_model(service, operation).input_shape, params, operation, problems)
    return problems


def _pattern(shape):
    pattern = shape.metadata.get("pattern")
    return None if pattern is None else regex.compile(pattern)


def _check(shape, value, path, problems):
    kind = shape.type_name
    meta = shape.metadata
    if kind == "structure":
        if not isinstance(value, dict):
            problems.append(f"{path}: expected an object, got {type(value).__name__}")
            return
        for name in shape.required_members:
            if name not in value:
                problems.append(f"{path}: missing required member {name}")
        for name, member_value in value.items():
            if name not in shape.members:
                problems.append(f"{path}: unknown member {name}")
            else:
                _check(shape.members[name], member_value, f"{path}.{name}", problems)
        return
    if kind == "list":
        if not isinstance(value, list):
            problems.append(f"{path}: expected a list, got {type(value).__name__}")
            return
        _bounds(len(value), meta, path, "entries", problems)
        for i, item in enumerate(value):
            _check(shape.member, item, f"{path}[{i}]", problems)
        return
    if kind == "map":
        if not isinstance(value, dict):
            problems.append(f"{path}: expected a map, got {type(value).__name__}")
            return
        _bounds(len(value), meta, path, "entries", problems)
        for key, item in value.items():
            _check(shape.key, key, f"{path}<key {key!r}>", problems)
            _check(shape.value, item, f"{path}[{key!r}]", problems)
        return
    if kind == "string":
        if not isinstance(value, str):
            problems.append(f"{path}: expected a string, got {type(value).__name__} {value!r}")
            return
        _bounds(len(value), meta, path, "characters", problems)
        if shape.enum and value not in shape.enum:
            problems.append(f"{path}: {value!r} is not one of {shape.enum}")
        pattern = _pattern(shape)
        if pattern is not None and not pattern.fullmatch(value):
            problems.append(f"{path}: {value!r} does not match {pattern.pattern}")
        return
    if kind in ("integer", "long"):
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(f"{path}: expected an integer, got {value!r}")
            return
        _bounds(value, meta, path, "", problems)
        return
    if kind in ("float", "double"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            problems.append(f"{path}: expected a number, got {value!r}")
            return
        _bounds(value, meta, path, "", problems)
        return
    if kind == "boolean":
        if not isinstance(value, bool):
            problems.append(f"{path}: expected true or false, got {value!r}")
        return
    if kind == "timestamp":
        if not isinstance(value, (str, int, float)):
            problems.append(f"{path}: expected a timestamp, got {value!r}")
        return
    if kind == "blob":
        if not isinstance(value, str):
            problems.append(f"{path}: expected base64 text, got {value!r}")
        return
    problems.append(f"{path}: no check for shape type {kind}")


def _bounds(size, meta, path, unit, problems):
    what = f"{size} {unit}".strip()
    if "min" in meta and size < meta["min"]:
        problems.append(f"{path}: {what}, fewer than the minimum {meta['min']}")
    if "max" in meta and size > meta["max"]:
        problems.append(f"{path}: {what}, more than the maximum {meta['max']}")


if __name__ == "__main__":
    args = sys.argv[1:]
    service = "sagemaker"
    if args[:1] == ["--service"]:
        service, args = args[1], args[2:]
    found = validate(args[0], json.load(sys.stdin), service)
    for problem in found:
        print(problem)
    sys.exit(1 if found else 0)
