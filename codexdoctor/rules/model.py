"""MODEL: model ID. The rules, their Simplified Chinese texts and the helpers only they use.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from codexdoctor.net.classify import NO_CHANNEL_MARKERS
from codexdoctor.rules.base import CHANNEL, CONFIG, E, I, Loc, Rule, Text, W, once

_REMEMBERED_SUFFIX = re.compile(r"[-_@.:](?:\d{4}-?\d{2}-?\d{2}|\d{4,}|latest|preview)$", re.I)


def _elsewhere(f: Mapping[str, Any]) -> dict[str, Any]:
    """The model error came from the base_url variant that works (the configured path was a 404): quote it from there,
    so the model is named in the same run as the path (issue 28)."""
    at = f.get("model_not_found_at")
    if not at or f.get("kind") == "model_not_found":
        return {}
    return {
        "message": Loc(
            f"{at['url']} answered {at['status']}: {at['message']}", f"{at['url']} 返回 {at['status']}：{at['message']}"
        )
    }


def _model_id_step(f: Mapping[str, Any]) -> Loc:
    """The catalog holds the configured ID minus a remembered date suffix: name the ID to set, ready to copy."""
    model = str(f.get("model") or "")
    where = f.get("model_where") or f.get("model_origin")
    for cand in f.get("catalog_closest") or []:
        if model.startswith(cand) and _REMEMBERED_SUFFIX.fullmatch(model[len(cand) :]):
            return Loc(
                f'The catalog lists "{cand}" without the suffix "{model[len(cand) :]}": in '
                f'{where}, set model = "{cand}"',
                f'模型列表里是不带后缀 "{model[len(cand) :]}" 的 "{cand}"：在 {where} 中设置 model = "{cand}"',
            )
    message = str((f.get("model_not_found_at") or {}).get("message") or f.get("message") or "").lower()
    if any(m in message for m in NO_CHANNEL_MARKERS):  # one-api / new-api: no channel for this model in the key's group
        return Loc(
            f'The gateway has no channel for model = "{model}" in your key\'s group. If the model is not in its '
            f"list (GET <base_url>/models), set an ID from that list in {where}; if it is, its "
            "channels are disabled or your group may not use it: ask the gateway's admin, or use a key of a group "
            "that has it.",
            f'网关在你的密钥所属分组下没有模型 "{model}" 的渠道。如果该模型不在它的列表里（GET <base_url>/models），'
            f"请在 {where} 中改用列表里的 ID；如果在列表里，说明它的渠道已被禁用，或你的分组无权使用："
            "请联系网关管理员，或改用有该模型的分组的密钥。",
        )
    return Loc(
        "Copy the exact ID from the provider's model list (GET <base_url>/models or its console), without a "
        f'remembered date suffix, and set model = "<id>" in {where}.',
        "从提供方的模型列表（GET <base_url>/models 或控制台）复制准确的 ID，不要凭记忆加日期后缀，然后在 "
        f'{where} 中设置 model = "<id>"。',
    )


RULES: tuple[Rule, ...] = (
    Rule(
        code="MODEL001",
        name="model-not-found",
        check="api.canary",
        reads=(
            "catalog_closest",
            "kind",
            "message",
            "model",
            "model_not_found_at",
            "model_origin",
            "model_where",
            "pasted_model",
        ),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider does not serve this model ID",
            diagnosis='model = "{model}" ({model_origin}): {message}. {closest_text}{mismatch_text}',
            remedy=("{model_id_step}", "Check wire_api: some gateways list a model but serve it only on one API."),
        ),
        zh=Text(
            title="提供方不提供这个模型 ID",
            diagnosis='model = "{model}"（{model_origin}）：{message}。{closest_text}{mismatch_text}',
            remedy=("{model_id_step}", "检查 wire_api：有些网关列出了模型，却只在其中一种接口上提供它。"),
        ),
        when=lambda f: (
            [
                {
                    "closest_text": Loc(
                        "Closest IDs in the catalog: " + ", ".join(f["catalog_closest"]) + ".",
                        "模型列表中最接近的 ID：" + "、".join(f["catalog_closest"]) + "。",
                    )
                    if f.get("catalog_closest")
                    else "",
                    "model_id_step": _model_id_step(f),
                    **_elsewhere(f),
                    "mismatch_text": Loc(
                        f" The error names `{f['pasted_model']}`, but your config says model = "
                        f'"{f.get("model")}": the run that failed used another model (a profile, '
                        "`-m`, or the config before a change); fix the one that run used.",
                        f'报错里的模型是 `{f["pasted_model"]}`，而你的配置是 model = "{f.get("model")}"：'
                        "失败的那次运行用的是另一个模型（profile、`-m`，或修改之前的配置）；请修正那次运行用的设置。",
                    )
                    if f.get("pasted_model")
                    else "",
                }
            ]
            if f["kind"] == "model_not_found" or f.get("model_not_found_at")
            else []
        ),
    ),
    Rule(
        code="MODEL002",
        name="model-id-case-or-whitespace",
        check="api.catalog",
        reads=("canary_kind", "closest", "match", "model", "model_where"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Model ID differs only in case, spaces or a date suffix",
            diagnosis='model = "{model}" is in the catalog as "{closest_first}" ({match} mismatch), and the provider did not accept it.',
            remedy=('In {model_where}, set model = "{closest_first}"',),
        ),
        zh=Text(
            title="模型 ID 只差大小写、空格或日期后缀",
            diagnosis='model = "{model}" 在模型列表中是 "{closest_first}"（{match}不一致），提供方不接受现在的写法。',
            remedy=('在 {model_where} 中设置 model = "{closest_first}"',),
        ),
        when=lambda f: (
            [
                {
                    "closest_first": f["closest"][0],
                    "match": {
                        "case": Loc("case", "大小写"),
                        "whitespace": Loc("whitespace", "空格"),
                        "dated": Loc("date or version suffix", "日期或版本后缀"),
                    }[f["match"]],
                }
            ]
            if f.get("match") in ("case", "whitespace", "dated") and f.get("closest") and f.get("canary_kind") != "ok"
            else []
        ),
    ),
    Rule(
        code="MODEL003",
        name="azure-deployment-not-found",
        check="api.canary",
        reads=("kind", "model", "model_where"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Azure deployment not found",
            diagnosis='Azure answered DeploymentNotFound for model = "{model}": on Azure, `model` must be the deployment name, not the model name.',
            remedy=("Set model to your deployment's name from the Azure portal (Deployments), in {model_where}.",),
        ),
        zh=Text(
            title="找不到 Azure 部署",
            diagnosis='Azure 对 model = "{model}" 返回 DeploymentNotFound：在 Azure 上，`model` 必须填部署名，而不是模型名。',
            remedy=("在 {model_where} 中把 model 设为 Azure 门户（部署）里你的部署名称。",),
        ),
        when=once(lambda f: f["kind"] == "deployment_not_found"),
    ),
    Rule(
        code="MODEL004",
        name="model-absent-from-catalog",
        check="api.catalog",
        reads=("canary_kind", "count", "match", "model"),
        severity=I,
        verdict=CHANNEL,
        en=Text(
            title="Model not listed, but it works",
            diagnosis='model = "{model}" is not in the catalog ({count} models), yet the canary succeeded (aliases, or a server that serves one model whatever the name).',
            remedy=("Nothing to do; prefer the exact catalog ID if the provider documents one.",),
        ),
        zh=Text(
            title="模型不在列表中，但可以使用",
            diagnosis='model = "{model}" 不在模型列表中（共 {count} 个模型），但探测请求成功了（可能是别名，或者服务端只提供一个模型、不看名字）。',
            remedy=("无需处理；如果提供方文档给出了准确 ID，优先使用它。",),
        ),
        when=once(lambda f: f.get("match") == "missing" and f.get("canary_kind") == "ok"),
    ),
    Rule(
        code="MODEL005",
        name="model-missing-unverified",
        check="api.catalog",
        reads=("canary_ran", "closest", "count", "match", "model", "model_where"),
        severity=W,
        verdict=CHANNEL,
        en=Text(
            title="Model not in the catalog",
            diagnosis='model = "{model}" is not among the {count} models the provider lists. {closest_text}',
            remedy=("Copy the exact ID from the catalog into {model_where}, or run without --no-canary to test it.",),
        ),
        zh=Text(
            title="模型不在列表中",
            diagnosis='model = "{model}" 不在提供方列出的 {count} 个模型之中。{closest_text}',
            remedy=("从列表中复制准确的 ID 到 {model_where}，或去掉 --no-canary 实测一下。",),
        ),
        when=lambda f: (
            [
                {
                    "closest_text": Loc(
                        "Closest: " + ", ".join(f["closest"]) + ".", "最接近的：" + "、".join(f["closest"]) + "。"
                    )
                    if f.get("closest")
                    else ""
                }
            ]
            if f.get("match") == "missing" and not f.get("canary_ran")
            else []
        ),
    ),
    Rule(
        code="MODEL006",
        name="model-is-placeholder",
        check="cfg.provider",
        reads=("model", "model_placeholder", "model_where"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="The model is still the guide's placeholder",
            diagnosis='model = "{model}" in {model_where} is a guide\'s placeholder ({model_placeholder}-style), not a '
            "model ID: Codex sends it as it is and the provider answers that `{model}` does not exist.",
            remedy=(
                "Put a model ID your provider serves in {model_where} (its model list, or `codexdoctor check`, which "
                "reads the provider's catalog).",
            ),
        ),
        zh=Text(
            title="模型还是教程里的占位符",
            diagnosis='{model_where} 中的 model = "{model}" 是教程里的占位符（{model_placeholder} 这类文字），不是模型 ID：'
            "Codex 会原样发送它，提供方会回答 `{model}` 不存在。",
            remedy=(
                "在 {model_where} 中填入提供方实际提供的模型 ID（见它的模型列表，或运行会读取提供方模型列表的 "
                "`codexdoctor check`）。",
            ),
        ),
        when=once(lambda f: bool(f.get("model_placeholder"))),
    ),
)
