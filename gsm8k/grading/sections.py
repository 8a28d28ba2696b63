"""Which part of a completion can hold its final answer, and whether the model finished at all.

Reasoning models write working before their answer, in several conventions:

- reasoning blocks (``<think>…</think>``, ``<thinking>``, ``<reasoning>``, ``<thought>``,
  ``[THINK]…[/THINK]``, ``<|begin_of_thought|>…<|end_of_thought|>``) are working and are removed;
  a closing tag without an opening one (the template opened the block in the prompt) makes
  everything before it working. A block never closed means the model never reached its answer;
- chat-template section markers written into the text (``<|im_start|>think … <|im_start|>answer
  …``, as s1-style budget forcing leaves them): the last answer section is the answer, thinking
  sections are working. It ends at the next chat marker (``<|im_start|>``, ``<|im_end|>``). A
  generation cut off at the token limit in its thinking section, with no answer section, never
  reached an answer;
- gpt-oss's harmony channels, as raw tokens (``<|channel|>analysis<|message|>…<|end|>
  <|start|>assistant<|channel|>final<|message|>…``) or as the plain text a server leaves when it
  drops the special tokens (``analysis…assistantfinal…``): the last final channel is the answer,
  analysis and commentary are working, and a generation with analysis but no final channel gave
  no answer.

A generation that ends on an answer heading with nothing after it (`Final Answer:`, a bare
`<|im_start|>answer`, an `Answer:` line) delivered no answer, whatever its working says.

How a generation ended (cut mid-sentence, padded, looping to the limit) is read by
:mod:`gsm8k.grading.endings`: an answer followed by working cut off mid-sentence is a draft, a long
text cut mid-sentence gets no last-number guess, and a loop to the limit is set aside, the answer
read from the text before it and the loop's first copy (:attr:`Sections.loop`). Whether that
answer was delivered is the policy of :mod:`gsm8k.grading.delivery`: a loop after a final answer
that states no other value keeps it; a loop that began before any answer, or that states other
values, has none.

Everything here runs in time linear in the completion's length; the loop check looks at a
bounded window at the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gsm8k.grading.endings import find_loop

UNCLOSED_REASONING = "reasoning block never closed: the model did not reach a final answer"
THINKING_CUT_OFF = "cut off while thinking, before any answer section: no final answer"
ENDS_IN_LOOP = "the generation ends in a loop repeated to the limit, with no final answer before it"
EMPTY_ANSWER = "the generation ends on an answer heading with nothing after it: no answer delivered"
NO_FINAL_CHANNEL = "analysis channel with no final channel: the model gave no final answer"
CUT_AFTER_DRAFT = (
    "the generation stops mid-sentence long after its last stated answer: that answer is a draft"
)

# A problem the model sets after its answer, named as one: `Exercise for the reader: …`,
# `Practice problem: …`, `Follow-up question: …`, `Here is a similar problem for practice: …`.
PRACTICE_PATTERN = (
    r"\n[ \t]*(?:\*\*)?(?:exercise[ \t]+for[ \t]+(?:the[ \t]+)?(?:reader|you)|bonus[ \t]+"
    r"(?:problem|question|challenge)|follow[ -]up"
    r"[ \t]+(?:problem|question)|try[ \t]+this[ \t]+one|here(?:[ \t]+is|['’]s)[ \t]+(?:a|another)"
    r"[ \t]+(?:similar|practice|related|new)[ \t]+(?:problem|question|exercise)\b[^:\n]{0,40}?"
    r"|(?:related[ \t]+)?practice(?:[ \t]+(?:problem|question|exercise))?"
    r"|(?:question|problem)[ \t]*\d{1,3})"
    r"(?:\*\*)?[ \t]*[:：.!]"
)
PRACTICE = re.compile(PRACTICE_PATTERN, re.IGNORECASE)
_REASONING_TAG = re.compile(
    r"<(?P<close>/?)(?:think|thinking|thought|reasoning)(?:[ \t][^<>\n]{0,300})?>"
    r"|<\|(?P<marker>begin|end)_of_thought\|>",
    re.IGNORECASE,
)
# Bracket tags are matched in capitals only: `[THINK]` is a template token, while `[think]` in
# prose (`Answer: [think] [answer]`, a template echoed back) is text.
_BRACKET_TAG = re.compile(r"\[(?P<bclose>/?)THINK\]")
_ANY_TAG = re.compile(f"{_REASONING_TAG.pattern}|{_BRACKET_TAG.pattern}", re.IGNORECASE)
_SECTION_MARKER = re.compile(r"<\|im_start\|>[ \t]*(?P<role>think|answer)")
_HEADING_WINDOW = 200
"""Characters at the end in which a trailing empty answer heading is looked for."""
_EMPTY_ANSWER_END = re.compile(
    r"(?:final[ \t]+answer[ \t*_]*[:：]|<\|im_start\|>[ \t]*answer"
    r"|^[ \t*_#>]*answer[ \t*_]*[:：])[\s*_]*\Z",
    re.IGNORECASE | re.MULTILINE,
)
# A new turn the model invented after its answer: a new question in any MGSM language, or the
# turn markers of the chat families (ChatML, Phi's `<|user|>` and `<|assistant|>`, Llama 3's
# header, DeepSeek's full-width `<｜User｜>`, Mistral's `[INST]`, a harmony user turn, Gemma's
# turn tokens, Alpaca headings).
FOLLOW_UP = re.compile(
    r"\n[ \t]*(?:\*\*)?(?:question|problem|exercise|example|q|human|user|frage|pregunta|задача"
    r"|вопрос|swali|প্রশ্ন|ప్రశ్న|โจทย์|問題|问题)(?:[ \t]*\d{1,6})?(?:\*\*)?[ \t]*[:：.]"
    r"|<\|(?:im_start|user|assistant|system|endoftext|eot_id|end_of_text)\|>"
    r"|<\|start_of_role\|>|\n[ \t]*(?:\*\*)?input(?:\*\*)?[ \t]*[:：]"
    r"|\n[ \t]*(?:\*\*)?new[ \t]+(?:question|problem)"
    r"|\n[ \t]*(?:now[ \t]+)?(?:solve|try)[ \t]+(?:the[ \t]+|a[ \t]+)?(?:next|another|new"
    r"|similar)[ \t]+(?:problem|question)|"
    + PRACTICE_PATTERN
    + r"|<[|｜](?:user|end[▁_ ]of[▁_ ]sentence)[|｜]>|<\|start_header_id\|>[ \t]*user"
    r"|\[INST\]|<\|start\|>[ \t]*user"
    r"|<(?:start|end)_of_turn>|\n[ \t]*#{1,4}[ \t]*(?:instruction|input|human|user)\b",
    re.IGNORECASE,
)
_SECTION_END = re.compile(r"<\|im_start\|>|<\|im_end\|>")
_HARMONY_FINAL = re.compile(
    r"<\|channel\|>[ \t]*final(?:[ \t][^<>\n]{0,80})?<\|message\|>|(?<![A-Za-z])assistantfinal"
)
_HARMONY_WORKING = re.compile(r"<\|channel\|>[ \t]*(?:analysis|commentary)|\A\s*analysis(?=\S)")
_HARMONY_USER = re.compile(r"<\|start\|>[ \t]*user")
_HARMONY_END = re.compile(r"<\|(?:end|return|start|call)\|>")


@dataclass(frozen=True)
class Sections:
    """The text that may hold the final answer, and what was set aside.

    Attributes:
        text: The answer-bearing text (reasoning removed; the answer section when marked).
        reasoning: Whether any reasoning block or thinking section was set aside.
        note: Why the completion has no answer at all (empty when it may have one).
        loop: The passage the completion repeats to its end, once (empty when it does not
            loop); ``text`` then stops after the loop's first copy.
        thinking: Whether ``text`` is a thinking section that no answer section followed.
    """

    text: str
    reasoning: bool
    note: str = ""
    loop: str = ""
    thinking: bool = False


def answer_sections(completion: str, truncated: bool = False) -> Sections:
    """Set aside working, and say when the generation never delivered an answer.

    A completion that ends in a loop is read up to the end of the loop's first copy; the
    repeated passage is returned in :attr:`Sections.loop` for the delivery policy to judge.
    """
    loop = find_loop(completion)
    passage = ""
    if loop is not None:
        passage = completion[loop.start : loop.start + loop.period]
        # A copy with no number in it, or one that is an invented follow-up turn, cannot hold
        # this question's answer: only the text before the loop is read.
        keep = loop.start if _copy_holds_no_answer(passage) else loop.start + loop.period
        completion = completion[:keep]
    if "<|channel|>" in completion or "assistantfinal" in completion:
        harmony = _final_channel(completion)
        if harmony is not None:
            text, finished = harmony
            if not finished:
                return Sections("", True, NO_FINAL_CHANNEL, passage)
            return Sections(split_reasoning(text)[0], True, "", passage)
    text, thinking = _answer_section(completion)
    if thinking and truncated and not passage:
        # (A loop in the thinking is judged by the delivery policy: a budget-forced final answer
        # repeated to the limit was delivered; a draft followed by a loop of doubt was not.)
        return Sections("", True, THINKING_CUT_OFF, passage, thinking)
    visible, reasoning, unclosed = split_reasoning(text)
    if unclosed:
        return Sections("", True, UNCLOSED_REASONING, passage, thinking)
    if not passage and _EMPTY_ANSWER_END.search(
        completion, max(0, len(completion) - _HEADING_WINDOW)
    ):
        # `… \\boxed{10}.Final Answer:` and nothing more: the draft before the heading is not
        # the answer the model was asked to give, and it gave none. (A heading repeated in a
        # loop after the answer is the loop's, which the delivery policy judges.)
        return Sections("", reasoning or thinking, EMPTY_ANSWER, passage, thinking)
    return Sections(cut_restated_question(visible), reasoning or thinking, "", passage, thinking)


def _copy_holds_no_answer(passage: str) -> bool:
    """Whether a loop's passage has no number, or is a follow-up turn the model invented."""
    if _DIGIT.search(passage) is None:
        return True
    twice = passage + passage
    return any(not _SECTION_MARKER.match(twice, turn.start()) for turn in FOLLOW_UP.finditer(twice))


def cut_restated_question(text: str) -> str:
    """The text without a whole question restated at its end.

    A last paragraph that ends with a question mark, shows no working (no ``=``) and states at
    least :data:`RESTATED_NUMBERS` numbers before its question is the problem copied out again,
    not an answer: its numbers are the question's, so it is set aside (the answer comes before
    it).
    """
    stripped = text.rstrip(" \t\n*_")
    if not stripped.endswith(("?", "？")):
        return text
    start = stripped.rfind("\n\n")
    if start < 0 or _DIGIT.search(text, 0, start) is None:
        return text
    paragraph = stripped[start:]
    last_sentence = max(paragraph.rfind(mark, 0, len(paragraph) - 1) for mark in ".!。\n")
    premises = paragraph[: max(last_sentence, 0)]
    if "=" in paragraph or len(_NUMBER_RUN.findall(premises)) < RESTATED_NUMBERS:
        return text
    if _STATES_ANSWER.search(paragraph):
        return text  # `The answer is 540. No wait, 9. Hmm, or 540?`: an answer, then doubt
    return text[:start]


RESTATED_NUMBERS = 2
"""Numbers a last paragraph must state before its question to be a restated question."""
_DIGIT = re.compile(r"\d")
_STATES_ANSWER = re.compile(
    r"\b(?:the|my|final)[ \t]+answer[ \t]*(?:is|:)|####|\\boxed|ANSWER:", re.IGNORECASE
)
_NUMBER_RUN = re.compile(r"\d++")


def _final_channel(completion: str) -> tuple[str, bool] | None:
    """The last harmony final channel and ``True``; ``("", False)`` for analysis with no final
    channel; ``None`` when the text is not written in harmony channels."""
    final = None
    first = _HARMONY_FINAL.search(completion)
    invented = _HARMONY_USER.search(completion, first.end()) if first else None
    if invented is not None:
        # A user turn the model wrote after its final answer, then a second final: invented.
        completion = completion[: invented.start()]
    raw = "<|channel|>" in completion
    for found in _HARMONY_FINAL.finditer(completion):
        if raw and not found.group(0).startswith("<"):
            # With the channel tokens in the text, `assistantfinal` written inside an analysis
            # message is words of the analysis, not the separator a server leaves.
            continue
        final = found
    if final is None:
        return ("", False) if _HARMONY_WORKING.search(completion) else None
    end = _HARMONY_END.search(completion, final.end())
    return completion[final.end() : end.start() if end else len(completion)], True


def _answer_section(completion: str) -> tuple[str, bool]:
    """The last answer section when markers divide the text, and whether thinking had no answer.

    A model may think, answer, think again and answer again: the last answer section holds its
    final delivered answer. Returns the text to read and ``True`` when the text is a thinking
    section that never reached an answer section.
    """
    if "<|im_start|>" not in completion:
        return completion, False  # the common case, found with one cheap scan
    thinking = answer = None
    closed = _closed_blocks(completion)
    for marker in _SECTION_MARKER.finditer(completion):
        if any(start <= marker.start() < end for start, end in closed):
            continue  # a marker written inside a finished reasoning block is part of the working
        if marker.group("role") == "answer":
            answer = marker
        elif thinking is None:
            thinking = marker
    if answer is not None:
        end = _SECTION_END.search(completion, answer.end())
        return completion[answer.end() : end.start() if end else len(completion)], False
    if thinking is None:
        return completion, False
    return completion[: thinking.start()] + completion[thinking.end() :], True


def _closed_blocks(completion: str) -> list[tuple[int, int]]:
    """Spans of reasoning blocks that were opened and closed again, outermost only."""
    spans: list[tuple[int, int]] = []
    depth, opened = 0, 0
    for tag in _ANY_TAG.finditer(completion):
        if tag.group(0).startswith("[") and tag.group(0) not in ("[THINK]", "[/THINK]"):
            continue
        if not (tag.group("close") or tag.group("bclose") or tag.group("marker") == "end"):
            if depth == 0:
                opened = tag.start()
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                spans.append((opened, tag.end()))
    return spans


def split_reasoning(completion: str) -> tuple[str, bool, bool]:
    """Remove reasoning blocks from a completion.

    Returns:
        The text outside reasoning blocks, whether there was any reasoning block, and whether a
        block was left open (the model never finished reasoning).
    """
    kept: list[str] = []
    depth, position, seen = 0, 0, False
    for tag in _ANY_TAG.finditer(completion):
        if tag.group(0).startswith("[") and tag.group(0) not in ("[THINK]", "[/THINK]"):
            continue  # `[think]`: prose, not the template token
        seen = True
        if depth == 0:
            kept.append(completion[position : tag.start()])
        closing = bool(tag.group("close") or tag.group("bclose") or tag.group("marker") == "end")
        if not closing:
            depth += 1
        elif depth > 0:
            depth -= 1
        else:
            # A closing tag with no opening one: the template opened the block in the prompt,
            # so everything before this tag was reasoning.
            kept = []
        position = tag.end()
    if depth > 0:
        return "".join(kept), seen, True
    kept.append(completion[position:])
    return "".join(kept), seen, False
