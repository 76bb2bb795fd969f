"""The `message` template filter, a builtin of every template (settings.TEMPLATES)."""

from typing import Any

from django import template

from common.django.message_render import render

register = template.Library()


@register.filter(name="message")
def message_filter(value: Any) -> str:
    """`{{ note|message }}`: a Message (or its JSON form) in the reader's language."""
    if value in (None, ""):
        return ""
    if isinstance(value, str):  # a sentence from before messages, or a user's text
        return value
    return render(value)
