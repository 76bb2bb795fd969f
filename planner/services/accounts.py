"""Accounts staff make for colleagues: an invitation is a user with no password yet, who
sets one through Django's password-reset confirmation link (valid for
PASSWORD_RESET_TIMEOUT, three days by default)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from common.messages import Message, msg


class InviteRefused(Exception):
    def __init__(self, problems: list[Message]):
        super().__init__(problems)
        self.problems = problems


@dataclass(frozen=True)
class SetPasswordKey:
    """What Django's `password_reset_confirm` URL takes: the user's id and a token."""

    uidb64: str
    token: str


def set_password_key(user) -> SetPasswordKey:
    return SetPasswordKey(urlsafe_base64_encode(force_bytes(user.pk)),
                          default_token_generator.make_token(user))  # fmt: skip


@transaction.atomic
def invite(*, username: str, email: str, invited_by) -> tuple[object, SetPasswordKey]:
    """A new active user without a usable password, and the key to set one. Refused (and
    nothing made) for a non-staff inviter or a username or e-mail address already taken."""
    users = get_user_model()
    if not getattr(invited_by, "is_staff", False):
        raise InviteRefused([msg("accounts.invite_staff_only")])
    problems = []
    if users.objects.filter(username__iexact=username).exists():
        problems.append(msg("accounts.username_taken", username=username))
    if email and users.objects.filter(email__iexact=email).exists():
        problems.append(msg("accounts.email_taken", email=email))
    if problems:
        raise InviteRefused(problems)
    user = users.objects.create_user(username=username, email=email)  # no password: unusable
    return user, set_password_key(user)
