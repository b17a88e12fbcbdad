"""Uses Ferry's web console in headless Chromium as an operator would: logs in, finds a running statement in the
list, looks at a statement's plan, and cancels the running one; prints one JSON object per step for WebConsoleTest.

usage: web_console.py URL USER PASSWORD MARKER
MARKER is a piece of the running statement's text. Selenium is given Debian's chromedriver, so it downloads nothing;
the login goes in an Authorization header (HTTP Basic, what the browser would send after its login prompt).
"""
import base64
import json
import sys

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from headless import chromium


def out(step, **values):
    print(json.dumps({"step": step, **values}), flush=True)


def main():
    url, user, password, marker = sys.argv[1:5]
    driver = chromium()
    try:
        login = base64.b64encode((user + ":" + password).encode()).decode()
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Authorization": "Basic " + login}})
        driver.get(url)
        # the page redraws its tables every second: an element found a moment ago may be gone, so look again
        wait = WebDriverWait(driver, 60, ignored_exceptions=[StaleElementReferenceException])

        def click(find, how, what):
            wait.until(lambda d: find(d) and (find(d).find_element(how, what).click() or True))

        def running_row(d):
            for row in d.find_elements(By.CSS_SELECTOR, "#queries tbody tr.running"):
                if marker in row.find_element(By.CSS_SELECTOR, "td.sql").text:
                    return row
            return False

        query_id = wait.until(lambda d: running_row(d) and running_row(d).get_attribute("data-id"))
        page = wait.until(lambda d: {
            "status": d.find_element(By.ID, "status").text,
            "nodes": [r.text for r in d.find_elements(By.CSS_SELECTOR, "#nodes tbody tr")],
            "tables": [r.find_element(By.CSS_SELECTOR, "td").text
                       for r in d.find_elements(By.CSS_SELECTOR, "#tables tbody tr")]})
        out("listed", id=query_id, **page)

        click(running_row, By.XPATH, ".//button[text()='Plan']")
        wait.until(lambda d: "Ferry" in d.find_element(By.ID, "plan").text)
        out("plan", plan=driver.find_element(By.ID, "plan").text)

        click(running_row, By.CSS_SELECTOR, "button.cancel")

        def ended(d):
            rows = d.find_elements(By.CSS_SELECTOR, "#queries tbody tr[data-id='%s']" % query_id)
            return rows[0] if rows and "running" not in rows[0].get_attribute("class") else False

        done = wait.until(lambda d: ended(d) and {
            "row_class": ended(d).get_attribute("class"),
            "state": ended(d).find_element(By.CSS_SELECTOR, "td.state").text})
        out("cancelled", status=driver.find_element(By.ID, "status").text, **done)
        return 0
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
