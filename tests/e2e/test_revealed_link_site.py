"""A revealed secret roll's link in the built static site: what it proves alone and against its sealed link.

A revealed link's digest has no key, so anyone can write one with any dice that follow from some
seed. Alone it is shown with what it proves (its dice follow from its seed), not as verified; once
this device has the game master's sealed link (kept in the session's numbering), a revealed link
that does not open it is altered and the true one matches it.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from pages import start
from playwright.sync_api import Browser, expect

from engine import FateCheck, links, roll_check

pytestmark = [pytest.mark.browser, pytest.mark.site]


def forged_reveal(revealed_link: str) -> str:
    """A revealed link for the same roll with other dice: another seed, its dice, a new digest."""
    revealed = links.decode_link(revealed_link)
    claims = ((s, links.claim_of(roll_check(revealed.check, s))) for s in range(1, 100))
    seed, claim = next((s, c) for s, c in claims if c.dice != revealed.claim.dice)
    return links.encode_link(replace(revealed, seed=seed, claim=claim))


def test_a_forged_revealed_link_is_not_verified_and_fails_against_the_sealed_link(browser: Browser, site_url: str):
    secret = links.encode_secret_link(
        FateCheck(skill=8), seed=424_242_424, name="Vlasta", session_code="GM-ÚTERÝ", number=1
    )
    forged = forged_reveal(secret.revealed_link)
    assert links.verify(forged).verified  # on its own terms the forgery holds
    context = browser.new_context()
    page = context.new_page()

    start(page, links.link_url(site_url + "?lang=en", forged))
    verdict = page.get_by_test_id("verdict").filter(visible=True)
    expect(verdict).to_have_attribute("data-status", "revealed")
    expect(verdict).to_have_text(
        "This is a revealed secret roll: it shows that these dice follow from its seed. Only the game master's"
        " sealed link, opened here, shows the seed was fixed before the roll."
    )
    expect(page.locator(".outcome.good").filter(visible=True)).to_have_count(0)
    page.close()

    # the game master's sealed link, opened on this device, joins the session's numbering
    page = context.new_page()
    start(page, links.link_url(site_url + "?lang=en", secret.link))
    expect(page.get_by_test_id("verdict").filter(visible=True)).to_have_attribute("data-status", "sealed")
    page.wait_for_function(
        "link => (window.localStorage.getItem('kostka.numbering') || '').includes(link)", arg=secret.link
    )
    page.close()

    page = context.new_page()
    start(page, links.link_url(site_url + "?lang=en", forged))
    verdict = page.get_by_test_id("verdict").filter(visible=True)
    expect(verdict).to_have_attribute("data-status", "altered")
    expect(verdict).to_contain_text("the sealed link you have")
    expect(page.locator("[data-testid=link-dice]")).to_have_count(0)
    page.close()

    page = context.new_page()
    start(page, links.link_url(site_url + "?lang=cs", secret.revealed_link))
    verdict = page.get_by_test_id("verdict").filter(visible=True)
    expect(verdict).to_have_attribute("data-status", "verified")
    expect(verdict).to_contain_text("odpovídá zapečetěnému odkazu, který máte")
    assert json.loads(page.evaluate("() => window.localStorage.getItem('kostka.numbering')"))["version"] == 1
    context.close()
