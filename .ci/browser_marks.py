"""The marks of `clarissa serve` (star, hide, note) in .ci/browser, as a person uses them:

- Star: "☆ Star" on a card marks the listing (the card says so after the page comes back), and
  the "Starred" link of the navigation lists it.
- Hide: "Hide" on a card takes it out of the list (and out of /api/map); "Hidden" lists it, and
  "Unhide" there puts it back in the list.
- Note: the listing's page opens "Add a note", saves the text, and shows it among the facts.
"""
import json
import urllib.request


def keys(driver):
    return [card.get_attribute("data-key") for card in driver.find_elements("css selector", "article.card")]


def card(driver, key):
    for found in driver.find_elements("css selector", "article.card"):
        if found.get_attribute("data-key") == key:
            return found
    return None


def mapped(base, query):
    with urllib.request.urlopen(base + "api/map" + query, timeout=10) as answer:
        return answer.read().decode()


def checks(driver, base, c, navigating):
    search = "listings?search=manhattan-apartments"

    # star
    driver.get(base + search)
    first, second = keys(driver)[:2]
    navigating(driver, card(driver, first).find_element("css selector", ".star-button").click)
    starred = card(driver, first)
    c.check("'Star' on a card marks it: the card comes back starred",
            starred is not None and "★ starred" in starred.text
            and "on" in starred.find_element("css selector", ".star-button").get_attribute("class").split(),
            driver.current_url)
    c.check("and the page is the list it was on", driver.current_url.endswith(search), driver.current_url)
    navigating(driver, driver.find_element("link text", "Starred").click)
    c.check("the 'Starred' view lists the starred listing", keys(driver) == [first], str(keys(driver)[:3]))

    # hide
    driver.get(base + search)
    c.check("the card to hide is on the list", second in keys(driver))
    navigating(driver, card(driver, second).find_element("css selector", ".hide-button").click)
    c.check("'Hide' on a card takes it out of the list", second not in keys(driver) and first in keys(driver))
    site, ident = second.split(":", 1)
    c.check("and out of the map's data", f'"key":"{site}:{ident}"' not in mapped(base, "?search=manhattan-apartments")
            and f'"{ident}"' not in mapped(base, "?search=manhattan-apartments"))
    navigating(driver, driver.find_element("link text", "Hidden").click)
    c.check("the 'Hidden' view lists it", keys(driver) == [second], str(keys(driver)[:3]))
    navigating(driver, card(driver, second).find_element("css selector", ".hide-button").click)
    c.check("'Unhide' takes it out of the hidden", second not in keys(driver))
    driver.get(base + search)
    c.check("and it is back in the list", second in keys(driver))

    # note
    driver.get(base + f"listing/{site}/{ident}")
    driver.find_element("css selector", ".actions .note-form summary").click()
    field = driver.find_element("css selector", ".actions .note-form textarea")
    field.send_keys("call after 6 <b>not bold</b>")
    navigating(driver, driver.find_element("css selector", ".actions .note-save").click)
    facts = driver.find_element("css selector", "dl.facts").text
    c.check("a note saved on the listing's page is shown among its facts", "call after 6 <b>not bold</b>" in facts, facts[-200:])
    with urllib.request.urlopen(base + f"api/listings/{site}/{ident}/marks", timeout=10) as answer:
        marks = json.load(answer)["marks"]
    c.check("and the API reads it", marks.get("note") == "call after 6 <b>not bold</b>", str(marks))
