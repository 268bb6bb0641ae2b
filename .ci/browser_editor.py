"""Searches edited from the page in .ci/browser (`/searches`, docs/serve.md "Editing searches").

- Edited: ipads' query becomes `ipad # mini: 6 ` (a `#`, a `: ` and a trailing space: YAML must
  quote it) and a filter is added in the form's empty row (exclude `cracked`, on the title);
  saved with the form's own button, as a person would.
- Checked: the list says it was saved; the file on disk has the new query line, quoted, and
  the new filter at the end of ipads' filters; every line outside ipads' own lines is as it
  was, and so are ipads' other lines (the `category: sss  # all for sale` comment); the
  previous file is searches.yaml.bak; the form shows the new values. Then a price that is no
  number is refused with its line and field, the file unchanged; and Pause writes
  `enabled: false` into that search only.
"""
import difflib


def block(lines, name):
    """The first and last index of the search `name`'s lines (its `- name:` line up to the next
    `- name:` or top-level key)."""
    start = lines.index(f"  - name: {name}")
    end = start + 1
    while end < len(lines) and not lines[end].startswith("  - ") and not (lines[end][:1].isalpha()):
        end += 1
    return start, end - 1


def checks(driver, base, config, navigating, c):
    from selenium.webdriver.support.ui import Select
    before = open(config, encoding="utf-8").read()
    old = before.split("\n")
    driver.get(base + "searches")
    c.check("the editor lists the searches", "ipads" in driver.page_source and "Add a search" in driver.page_source)
    navigating(driver, driver.find_element("css selector", 'a.button[href="/searches/edit?name=ipads"]').click)
    query = driver.find_element("name", "query")
    c.check("the form shows ipads' query", query.get_attribute("value") == "ipad", query.get_attribute("value"))
    query.clear()
    query.send_keys("ipad # mini: 6 ")
    rows = driver.find_elements("css selector", ".filter-row")
    kept = len(rows) - 2
    empty = rows[kept]
    Select(empty.find_element("name", "filter_effect")).select_by_value("exclude")
    empty.find_element("name", "filter_text").send_keys("cracked")
    Select(empty.find_element("name", "filter_on")).select_by_value("title")
    navigating(driver, driver.find_element("css selector", "form.editor button[type=submit]").click)
    c.check("the list says ipads was saved", "Saved: ipads" in driver.page_source)
    after = open(config, encoding="utf-8").read()
    new = after.split("\n")
    start, end = block(old, "ipads")
    changed = [line for line in difflib.unified_diff(old, new, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    c.check("ipads' query is written quoted", "+    query: 'ipad # mini: 6 '" in changed, str(changed))
    c.check("the new filter is at the end of ipads' filters",
            "+      - exclude: cracked" in changed and "+        on: title" in changed, str(changed))
    new_start, new_end = block(new, "ipads")
    c.check("every line before ipads is as it was", old[:start] == new[:new_start])
    c.check("every line after ipads is as it was", old[end + 1:] == new[new_end + 1:])
    c.check("ipads' comment stays", "    category: sss             # all for sale" in new)
    c.check("the previous file is kept as searches.yaml.bak",
            open(config + ".bak", encoding="utf-8").read() == before)
    driver.get(base + "searches/edit?name=ipads")
    c.check("the form shows the saved query",
            driver.find_element("name", "query").get_attribute("value") == "ipad # mini: 6 ")
    price = driver.find_element("name", "price_max")
    price.clear()
    price.send_keys("many")
    navigating(driver, driver.find_element("css selector", "form.editor button[type=submit]").click)
    problems = driver.find_elements("css selector", "#problems li")
    c.check("a price that is no number is shown at its line and field",
            len(problems) >= 1 and "(price)" in problems[0].text and "line " in problems[0].text,
            problems[0].text if problems else driver.page_source[:300])
    c.check("the refused form left the file alone", open(config, encoding="utf-8").read() == after)
    driver.get(base + "searches")
    navigating(driver, driver.find_elements("xpath", "//tr[td/a[text()='arkansas-land']]//button[text()='Pause']")[0].click)
    paused = open(config, encoding="utf-8").read().split("\n")
    added = [line for line in difflib.unified_diff(new, paused, lineterm="", n=0)
             if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    c.check("Pause writes enabled: false into that search only", added == ["+    enabled: false"], str(added))
    return c.failures
