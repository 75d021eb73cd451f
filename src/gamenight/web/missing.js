// The page of an address that leads nowhere (served with status 404): its texts in the
// visitor's language, and the language switcher.
import { initLanguage } from "/static/common.js";

initLanguage();
