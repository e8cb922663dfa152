/** The most digits a card number has (ISO/IEC 7812). */
const CARD_NUMBER_DIGITS = 19;

/** A card number as it is typed, grouped in fours as printed on the card: `4242 4242 4242 4242`; anything but digits is dropped. */
export function groupCardNumber(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, CARD_NUMBER_DIGITS);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * An expiry date as it is typed, as MM/YY: the slash comes once the year
 * begins (so deleting back over it works), a first digit that can only
 * be a month (2 to 9) becomes `0d`, and a four-digit year pasted or filled
 * in by the browser (`12/2029`) keeps its last two digits.
 */
export function formatExpiry(typed: string): string {
  let digits = typed.replace(/\D/g, '');
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  if (/^\d{2}20\d{2}$/.test(digits)) digits = digits.slice(0, 2) + digits.slice(4);
  digits = digits.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** A security code as it is typed: its digits, at most four. */
export function digitsOfCvc(typed: string): string {
  return typed.replace(/\D/g, '').slice(0, 4);
}

/** An amount in yen as the reader's language writes money: `¥2,710`, `￥2,710`. */
export function formatYen(amountYen: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: 'JPY' }).format(amountYen);
}
