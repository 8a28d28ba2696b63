"""Fresh GSM8K-like questions drawn at run time from GSM-Symbolic's symbolic templates.

GSM-Symbolic (Mirzadeh et al. 2024, https://arxiv.org/abs/2410.05229) rewrote 100 GSM8K test
questions as templates; this package reads them from a local copy (they are CC BY-NC-ND 4.0 and
never shipped here), interprets their small language with its own safe evaluator, and draws
seeded instances:

    templates = load_templates("ml-gsm-symbolic/templates/symbolic")  # a clone
    instance = instantiate(templates[0], random.Random(1))
    samples = fresh_samples(folder, seed=1, per_template=5)   # originals + fresh, paired
    results = self_check(templates)                            # defaults → the originals?

``docs/fresh-questions.md`` describes the language, the vocabularies, the self-check's figure
and the templates that do not reproduce their originals.
"""

from gsm8k.data.fresh.check import CheckResult, check_template, self_check
from gsm8k.data.fresh.instances import (
    MAX_TRIES,
    Instance,
    InstantiationError,
    from_json,
    instance_rng,
    instantiate,
    to_json,
)
from gsm8k.data.fresh.samples import (
    DEFAULT_FRESH_SEED,
    DEFAULT_PER_TEMPLATE,
    FRESH_SOURCE,
    MAX_PER_TEMPLATE,
    TEMPLATES_ENV,
    FreshSet,
    fresh_samples,
    fresh_set,
    templates_folder,
    validate_fresh_arguments,
)
from gsm8k.data.fresh.templates import Template, TemplateError, load_template, load_templates
from gsm8k.data.fresh.values import DrawError, ExpressionError, Labelled
from gsm8k.data.fresh.writing import render_question

__all__ = [
    "DEFAULT_FRESH_SEED",
    "DEFAULT_PER_TEMPLATE",
    "FRESH_SOURCE",
    "MAX_PER_TEMPLATE",
    "MAX_TRIES",
    "TEMPLATES_ENV",
    "CheckResult",
    "DrawError",
    "ExpressionError",
    "FreshSet",
    "Instance",
    "InstantiationError",
    "Labelled",
    "Template",
    "TemplateError",
    "check_template",
    "fresh_samples",
    "fresh_set",
    "from_json",
    "instance_rng",
    "instantiate",
    "load_template",
    "load_templates",
    "render_question",
    "self_check",
    "templates_folder",
    "to_json",
    "validate_fresh_arguments",
]
