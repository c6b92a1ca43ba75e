// The lookup page's only script, bundled into api/web/assets/lookup.js (npm run build:web). It shows the
// identity key as the user types, folded by core/fold's own code (the server and the registries fold the same
// way), and writes the page's instants in the reader's local time. Without it the page still works: the form
// is a plain GET and the server renders the key and UTC instants. Type-checked with the DOM library by its own
// tsconfig.json (npm run typecheck), so the rest of the code base is checked without browser globals.
import { boundsMessage, boundsReason } from "../../../core/fold/bounds";
import { foldV1 } from "../../../core/fold/fold";
import { relativeTime } from "./time";

function showLiveKey(form: HTMLFormElement, output: HTMLOutputElement, hint: HTMLElement): void {
  const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? "";
  const update = () => {
    const name = foldV1(field("name"));
    const ticker = foldV1(field("ticker"));
    output.value = `${name}::${ticker}`;
    const reason = boundsReason(name, ticker);
    hint.textContent = reason === "ok" ? "" : boundsMessage(reason);
  };
  form.addEventListener("input", update);
  update();
}

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** `<time data-local>`: the reader's local time, and the relative time in its `data-relative` sibling. */
function showLocalTimes(root: Document): void {
  const now = Date.now();
  for (const element of root.querySelectorAll<HTMLTimeElement>("time[data-local]")) {
    const at = Date.parse(element.dateTime);
    if (Number.isNaN(at)) continue;
    element.textContent = new Date(at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    const relative = element.parentElement?.querySelector<HTMLElement>("[data-relative]");
    if (relative) relative.textContent = `(${relativeTime(at, now, RELATIVE)})`;
  }
}

/** Optional fields left empty stay out of a result's URL, as a hand-written API query would leave them. */
function dropEmptyFields(form: HTMLFormElement): void {
  form.addEventListener("formdata", (event) => {
    for (const [name, value] of [...event.formData]) if (value === "") event.formData.delete(name);
  });
}

for (const getForm of document.querySelectorAll<HTMLFormElement>("form[method=get]"))
  dropEmptyFields(getForm);
const form = document.querySelector<HTMLFormElement>("form#lookup");
const output = document.querySelector<HTMLOutputElement>("output#live-key");
const hint = document.querySelector<HTMLElement>("#live-hint");
if (form && output && hint) showLiveKey(form, output, hint);
showLocalTimes(document);
