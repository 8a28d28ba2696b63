"""``-T sandbox=k8s``: this project's Helm values, checked against the k8s sandbox's own chart
schema and against the limits of the docker compose file."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from gsm8k.execution.container import COMPOSE_FILE, K8S_VALUES, compose_sandbox


def chart_dir() -> Path:
    k8s_sandbox = pytest.importorskip("k8s_sandbox")
    return Path(k8s_sandbox.__file__).parent / "resources" / "helm" / "agent-env"


def merged(defaults: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """Helm's merge of values: maps merge key by key, anything else is replaced."""
    result = copy.deepcopy(defaults)
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = merged(result[key], value)
        else:
            result[key] = value
    return result


def values() -> dict[str, Any]:
    loaded = yaml.safe_load(K8S_VALUES.read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_the_task_hands_the_values_file_to_the_k8s_sandbox() -> None:
    assert compose_sandbox("k8s") == ("k8s", str(K8S_VALUES))
    assert K8S_VALUES.is_file()


@pytest.mark.slow
def test_values_pass_the_charts_own_schema() -> None:
    import jsonschema

    chart = chart_dir()
    schema = json.loads((chart / "values.schema.json").read_text())
    defaults = yaml.safe_load((chart / "values.yaml").read_text())
    jsonschema.validate(merged(defaults, values()), schema)


def test_values_have_no_nulls_the_sandbox_would_refuse() -> None:
    chart_dir()
    from k8s_sandbox._helm import validate_no_null_values

    validate_no_null_values(values(), str(K8S_VALUES))


def test_a_broken_values_file_fails_the_schema() -> None:
    import jsonschema

    chart = chart_dir()
    schema = json.loads((chart / "values.schema.json").read_text())
    broken = values()
    broken["services"]["default"]["resources"] = "1Gi"  # not a mapping
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def test_the_limits_are_the_compose_files() -> None:
    service = yaml.safe_load(COMPOSE_FILE.read_text())["services"]["default"]
    pod = values()["services"]["default"]
    context = pod["securityContext"]
    uid, gid = (int(part) for part in service["user"].split(":"))
    assert (context["runAsUser"], context["runAsGroup"]) == (uid, gid)
    assert context["readOnlyRootFilesystem"] is service["read_only"] is True
    assert context["capabilities"]["drop"] == service["cap_drop"] == ["ALL"]
    assert "no-new-privileges:true" in service["security_opt"]
    assert context["allowPrivilegeEscalation"] is False
    assert service["mem_limit"] == service["memswap_limit"] == "1g"
    assert pod["resources"]["limits"]["memory"] == "1Gi"
    assert float(pod["resources"]["limits"]["cpu"]) == float(service["cpus"])
    assert service["tmpfs"] == ["/tmp:size=64m,mode=1777"]
    [scratch] = pod["volumes"]
    assert scratch["emptyDir"] == {"medium": "Memory", "sizeLimit": "64Mi"}
    assert pod["volumeMounts"] == [{"name": scratch["name"], "mountPath": "/tmp"}]
    assert service["network_mode"] == "none"
    top = values()
    assert top["allowDomains"] == top["allowCIDR"] == top["allowEntities"] == []
    assert pod["dnsRecord"] is False and top["automountServiceAccountToken"] is False
    assert pod["command"] == service["command"] and pod["image"] == service["image"]


def test_the_sandboxs_own_compose_converter_cannot_carry_these_limits() -> None:
    """Why a values file: the k8s sandbox converts compose files itself, but refuses ours."""
    chart_dir()
    from k8s_sandbox.compose._converter import (
        ComposeConverterError,
        convert_compose_to_helm_values,
    )

    with pytest.raises(ComposeConverterError) as refused:
        convert_compose_to_helm_values(COMPOSE_FILE)
    for key in ("cap_drop", "read_only", "tmpfs", "pids_limit", "ulimits"):
        assert key in str(refused.value)


def test_helm_renders_the_chart_with_these_limits() -> None:
    """``helm lint`` and ``helm template`` of the sandbox's chart with these values: what a cluster
    would be given. Runs where a ``helm`` binary is on PATH (or in ``$HELM``)."""
    import os
    import shutil
    import subprocess

    helm = os.environ.get("HELM") or shutil.which("helm")
    if helm is None:
        pytest.skip("no helm binary (PATH or $HELM)")
    chart = str(chart_dir())
    lint = subprocess.run(
        [helm, "lint", chart, "-f", str(K8S_VALUES)], capture_output=True, text=True, check=False
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
    rendered = subprocess.run(
        [helm, "template", "gsm8k", chart, "-f", str(K8S_VALUES)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert rendered.returncode == 0, rendered.stderr
    documents = [doc for doc in yaml.safe_load_all(rendered.stdout) if doc]
    [statefulset] = [doc for doc in documents if doc["kind"] == "StatefulSet"]
    pod = statefulset["spec"]["template"]["spec"]
    assert pod["runtimeClassName"] == "gvisor"
    assert pod["automountServiceAccountToken"] is False
    [container] = [
        c for c in pod["containers"] if c["image"] == values()["services"]["default"]["image"]
    ]
    security = container["securityContext"]
    assert security["allowPrivilegeEscalation"] is False
    assert security["readOnlyRootFilesystem"] is True
    assert security["runAsUser"] == 10001 and security["capabilities"]["drop"] == ["ALL"]
    assert container["resources"]["limits"] == {"cpu": "1", "memory": "1Gi"}
    scratch = [v for v in pod["volumes"] if v.get("emptyDir", {}).get("medium") == "Memory"]
    assert [v["emptyDir"]["sizeLimit"] for v in scratch] == ["64Mi"]
    # Egress only to the cluster's DNS (for names in the namespace) and the sandbox's own pods.
    [egress] = [
        doc for doc in documents if doc["kind"] == "CiliumNetworkPolicy" and "egress" in doc["spec"]
    ]
    for rule in egress["spec"]["egress"]:
        assert set(rule) <= {"toEndpoints", "toPorts"}, rule
