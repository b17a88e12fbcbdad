"""Opens a page in headless Chromium, as a user of the machine would, and waits until the page says it is done.

usage: browser_visit.py URL [SECONDS]
The page sets its title to 'done' when its scripts have run; this prints the title and exits 0, or exits 1 if the
page did not finish in time. Selenium is given Debian's chromedriver, so it downloads nothing.
"""
import sys

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.support.ui import WebDriverWait

from headless import chromium


def main():
    url = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 30
    driver = chromium()
    try:
        driver.get(url)
        WebDriverWait(driver, seconds).until(lambda d: d.title == "done")
        print(driver.title)
        return 0
    except TimeoutException:
        print("the page did not finish: title %r" % driver.title)
        return 1
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
