// English texts: the catalog folkcards/guide/messages.en.json, shared with the terminal
// table (folkcards.tui.i18n reads the same file). Every language has the same keys; a
// missing key falls back to English. Served at /guide/messages.en.json, which this relative
// path reaches from /static/js/lang/ (and, on disk, from src/folkcards/web/js/lang/).
import messages from "../../../guide/messages.en.json" with { type: "json" };

export default messages;
