// فارسی: the catalog folkcards/guide/messages.fa.json, shared with the terminal table.
// The layout turns right-to-left and numbers use Persian digits. Terms (as in the Persian
// seed documents and the rules guide): a deal is «دست», a trick is «تریک»; bidding is
// «خواندن»; clubs are «گشنیز».
import messages from "../../../guide/messages.fa.json" with { type: "json" };

export default messages;
