#!/bin/bash
# Recall and precision of the redaction rules at minimal over corpora that
# were written independently of the rules: every corpus listed in the loop
# below (tests/fixtures/redact/independent.tsv and the held-out sets
# heldoutN.tsv, each with its secret-free -clean file). At least 99% of
# the secret substrings must be gone, and no secret-free command may
# change.
. "$(dirname "$0")/../lib/test-lib.sh"

FIX=$SRC/tests/fixtures/redact
# corpus: NAME SECRETS CLEAN, the same three checks for each.
corpus() {
	"$PYTHON" "$SRC/tests/lib/redact-corpus.py" \
	    --deliberate "$BUILD/deliberate" "$@"
}
for c in "independent:independent.tsv:independent-clean.txt" \
    "held-out set 2:heldout2.tsv:heldout2-clean.txt" \
    "held-out set 3:heldout3.tsv:heldout3-clean.txt" \
    "held-out set 4:heldout4.tsv:heldout4-clean.txt" \
    "held-out set 5:heldout5.tsv:heldout5-clean.txt" \
    "held-out set 6:heldout6.tsv:heldout6-clean.txt" \
    "held-out set 7:heldout7.tsv:heldout7-clean.txt" \
    "held-out set 8:heldout8.tsv:heldout8-clean.txt" \
    "held-out set 9:heldout9.tsv:heldout9-clean.txt" \
    "held-out set 10:heldout10.tsv:heldout10-clean.txt" \
    "held-out set 11:heldout11.tsv:heldout11-clean.txt" \
    "held-out set 12:heldout12.tsv:heldout12-clean.txt:session_id=" \
    "held-out set 13:heldout13.tsv:heldout13-clean.txt" \
    "held-out set 14:heldout14.tsv:heldout14-clean.txt" \
    "held-out set 15:heldout15.tsv:heldout15-clean.txt" \
    "held-out set 16:heldout16.tsv:heldout16-clean.txt" \
    "held-out set 17:heldout17.tsv:heldout17-clean.txt" \
    "held-out set 18:heldout18.tsv:heldout18-clean.txt" \
    "held-out set 19:heldout19.tsv:heldout19-clean.txt:/Accounts/" \
    "held-out set 20:heldout20.tsv:heldout20-clean.txt" \
    "held-out set 21:heldout21.tsv:heldout21-clean.txt:TWILIO_ACCOUNT_SID=" \
    "held-out set 22:heldout22.tsv:heldout22-clean.txt" \
    "held-out set 23:heldout23.tsv:heldout23-clean.txt" \
    "held-out set 24:heldout24.tsv:heldout24-clean.txt:--account-sid " \
    "held-out set 25:heldout25.tsv:heldout25-clean.txt" \
    "held-out set 26:heldout26.tsv:heldout26-clean.txt" \
    "held-out set 27:heldout27.tsv:heldout27-clean.txt" \
    "held-out set 28:heldout28.tsv:heldout28-clean.txt:SENTRY_DSN=https://" \
    "held-out set 29:heldout29.tsv:heldout29-clean.txt" \
    "held-out set 30:heldout30.tsv:heldout30-clean.txt" \
    "held-out set 31:heldout31.tsv:heldout31-clean.txt" \
    "held-out set 32:heldout32.tsv:heldout32-clean.txt" \
    "held-out set 33:heldout33.tsv:heldout33-clean.txt" \
    "held-out set 34:heldout34.tsv:heldout34-clean.txt:--body " \
    "held-out set 35:heldout35.tsv:heldout35-clean.txt" \
    "held-out set 36:heldout36.tsv:heldout36-clean.txt" \
    "held-out set 37:heldout37.tsv:heldout37-clean.txt:--access-key=" \
    "held-out set 38:heldout38.tsv:heldout38-clean.txt" \
    "held-out set 39:heldout39.tsv:heldout39-clean.txt" \
    "held-out set 40:heldout40.tsv:heldout40-clean.txt:TELEGRAM_TOKEN=" \
    "held-out set 41:heldout41.tsv:heldout41-clean.txt:-u drupal -p " \
    "held-out set 42:heldout42.tsv:heldout42-clean.txt" \
    "held-out set 43:heldout43.tsv:heldout43-clean.txt" \
    "held-out set 44:heldout44.tsv:heldout44-clean.txt" \
    "held-out set 45:heldout45.tsv:heldout45-clean.txt" \
    "held-out set 46:heldout46.tsv:heldout46-clean.txt" \
    "held-out set 47:heldout47.tsv:heldout47-clean.txt" \
    "held-out set 48:heldout48.tsv:heldout48-clean.txt" \
    "held-out set 49:heldout49.tsv:heldout49-clean.txt:TWILIO_ACCOUNT_SID=;SHOPIFY_API_KEY=" \
    "held-out set 50:heldout50.tsv:heldout50-clean.txt" \
    "held-out set 51:heldout51.tsv:heldout51-clean.txt" \
    "held-out set 52:heldout52.tsv:heldout52-clean.txt" \
    "held-out set 53:heldout53.tsv:heldout53-clean.txt:&session=" \
    "held-out set 54:heldout54.tsv:heldout54-clean.txt://postgres:;SENTRY_DSN=https://;B2_ACCOUNT_ID=" \
    "held-out set 55:heldout55.tsv:heldout55-clean.txt:TWILIO_ACCOUNT_SID=" \
    "held-out set 56:heldout56.tsv:heldout56-clean.txt:s/appl_[A-Za-z0-9]*/;REVENUECAT_ANDROID_PUBLIC_KEY=" \
    "held-out set 57:heldout57.tsv:heldout57-clean.txt" \
    "held-out set 58:heldout58.tsv:heldout58-clean.txt:.json\" -u \";TWILIO_ACCOUNT_SID=" \
    "held-out set 59:heldout59.tsv:heldout59-clean.txt" \
    "held-out set 60:heldout60.tsv:heldout60-clean.txt" \
    "held-out set 61:heldout61.tsv:heldout61-clean.txt" \
    "held-out set 62:heldout62.tsv:heldout62-clean.txt" \
    "held-out set 63:heldout63.tsv:heldout63-clean.txt:--access-key-id ;2010-04-01/Accounts/" \
    "held-out set 64:heldout64.tsv:heldout64-clean.txt" \
    "held-out set 65:heldout65.tsv:heldout65-clean.txt" \
    "held-out set 66:heldout66.tsv:heldout66-clean.txt" \
    "held-out set 67:heldout67.tsv:heldout67-clean.txt" \
    "held-out set 68:heldout68.tsv:heldout68-clean.txt" \
    "held-out set 69:heldout69.tsv:heldout69-clean.txt" \
    "held-out set 70:heldout70.tsv:heldout70-clean.txt:--access-key-id " \
    "held-out set 71:heldout71.tsv:heldout71-clean.txt" \
    "held-out set 72:heldout72.tsv:heldout72-clean.txt" \
    "held-out set 73:heldout73.tsv:heldout73-clean.txt:--access-key-id " \
    "held-out set 74:heldout74.tsv:heldout74-clean.txt" \
    "held-out set 75:heldout75.tsv:heldout75-clean.txt" \
    "held-out set 76:heldout76.tsv:heldout76-clean.txt" \
    "held-out set 77:heldout77.tsv:heldout77-clean.txt:2010-04-01/Accounts/" \
    "held-out set 78:heldout78.tsv:heldout78-clean.txt:aws_access_key_id ;--access-key-id " \
    "held-out set 79:heldout79.tsv:heldout79-clean.txt:aws_access_key_id " \
    "held-out set 80:heldout80.tsv:heldout80-clean.txt:--access-key-id " \
    "held-out set 81:heldout81.tsv:heldout81-clean.txt:DROPBOX_APP_KEY=;REVENUECAT_PUBLIC_KEY=" \
    "held-out set 82:heldout82.tsv:heldout82-clean.txt:--access-key-id " \
    "held-out set 83:heldout83.tsv:heldout83-clean.txt:-u magento -p " \
    "held-out set 84:heldout84.tsv:heldout84-clean.txt:Accounts?AppID=" \
    "held-out set 85:heldout85.tsv:heldout85-clean.txt" \
    "held-out set 86:heldout86.tsv:heldout86-clean.txt" \
    "held-out set 87:heldout87.tsv:heldout87-clean.txt" \
    "held-out set 88:heldout88.tsv:heldout88-clean.txt:-PrincipalsAllowedToRetrieveManagedPassword ;hcloud server reset-password ;gcloud storage hmac update " \
    "held-out set 89:heldout89.tsv:heldout89-clean.txt:--access-key-id ;AttributeValue=;VITE_PUSHER_APP_KEY=" \
    "held-out set 92:heldout92.tsv:heldout92-clean.txt" \
    "held-out set 90:heldout90.tsv:heldout90-clean.txt:--access-key-id " \
    "held-out set 91:heldout91.tsv:heldout91-clean.txt" \
    "held-out set 93:heldout93.tsv:heldout93-clean.txt:TWILIO_ACCOUNT_SID=;--access-key-id ;--access-key=" \
    "held-out set 95:heldout95.tsv:heldout95-clean.txt" \
    "held-out set 94:heldout94.tsv:heldout94-clean.txt" \
    "held-out set 96:heldout96.tsv:heldout96-clean.txt:--access-key-id " \
    "held-out set 97:heldout97.tsv:heldout97-clean.txt" \
    "held-out set 98:heldout98.tsv:heldout98-clean.txt:--access-key-id " \
    "held-out set 99:heldout99.tsv:heldout99-clean.txt" \
    "held-out set 101:heldout101.tsv:heldout101-clean.txt" \
    "held-out set 100:heldout100.tsv:heldout100-clean.txt:--access-key-id " \
    "held-out set 102:heldout102.tsv:heldout102-clean.txt:B2_APPLICATION_KEY_ID=" \
    "held-out set 103:heldout103.tsv:heldout103-clean.txt" \
    "held-out set 104:heldout104.tsv:heldout104-clean.txt" \
    "held-out set 105:heldout105.tsv:heldout105-clean.txt:-u rivendell -p " \
    "held-out set 106:heldout106.tsv:heldout106-clean.txt:--access-key-id " \
    "held-out set 107:heldout107.tsv:heldout107-clean.txt:SENTRY_DSN=https://" \
    "held-out set 108:heldout108.tsv:heldout108-clean.txt" \
    "held-out set 109:heldout109.tsv:heldout109-clean.txt:/PUSHER_APP_KEY=" \
    "held-out set 110:heldout110.tsv:heldout110-clean.txt:--access-key-id " \
    "held-out set 111:heldout111.tsv:heldout111-clean.txt" \
    "held-out set 112:heldout112.tsv:heldout112-clean.txt" \
    "held-out set 113:heldout113.tsv:heldout113-clean.txt:APPLE_API_KEY=" \
    "held-out set 114:heldout114.tsv:heldout114-clean.txt:/Accounts/" \
    "held-out set 115:heldout115.tsv:heldout115-clean.txt:REVENUECAT_IOS_KEY=" \
    "held-out set 116:heldout116.tsv:heldout116-clean.txt" \
    "held-out set 117:heldout117.tsv:heldout117-clean.txt" \
    "held-out set 118:heldout118.tsv:heldout118-clean.txt" \
    "held-out set 119:heldout119.tsv:heldout119-clean.txt:<<< 'https://" \
    "held-out set 120:heldout120.tsv:heldout120-clean.txt" \
    "held-out set 121:heldout121.tsv:heldout121-clean.txt" \
    "held-out set 122:heldout122.tsv:heldout122-clean.txt" \
    "held-out set 123:heldout123.tsv:heldout123-clean.txt" \
    "held-out set 124:heldout124.tsv:heldout124-clean.txt" \
    "held-out set 125:heldout125.tsv:heldout125-clean.txt:MAPBOX_PUBLIC_TOKEN=;--body " \
    "held-out set 126:heldout126.tsv:heldout126-clean.txt" \
    "held-out set 127:heldout127.tsv:heldout127-clean.txt" \
    "held-out set 128:heldout128.tsv:heldout128-clean.txt:-u rduser -p " \
    "held-out set 129:heldout129.tsv:heldout129-clean.txt" \
    "held-out set 130:heldout130.tsv:heldout130-clean.txt" \
    "held-out set 131:heldout131.tsv:heldout131-clean.txt" \
    "held-out set 132:heldout132.tsv:heldout132-clean.txt" \
    "held-out set 133:heldout133.tsv:heldout133-clean.txt" \
    "held-out set 134:heldout134.tsv:heldout134-clean.txt" \
    "held-out set 135:heldout135.tsv:heldout135-clean.txt" \
    "held-out set 136:heldout136.tsv:heldout136-clean.txt" \
    "held-out set 137:heldout137.tsv:heldout137-clean.txt" ; do
	# A fourth field names lines of the clean file that are redacted by
	# decision: they are checked to change, and left out of the check
	# that nothing else does (heldout12: a session id in a URL is a
	# bearer credential, its writer counted it as clean; heldout19: a
	# Twilio Account SID, half of the login, which the rules redact; heldout24
# too; heldout28: a Sentry DSN's key, which eight other writers list as a
# secret; heldout34: a value stored with gh secret set, which is redacted
# whatever it is; heldout37: a radosgw access key id given to --access-key=,
# redacted as AWS access key ids are; heldout40: Telegram's documentation
# bot token, which has the real shape, written to .env.example; heldout41:
# mysql -p WORD, where WORD with a digit is taken for a password, as the
# seed's "-p MyP@ssw0rd" is; heldout49: a Twilio Account SID again, and a
# 32-hex value bound to SHOPIFY_API_KEY, which its writer calls public
# and the rules redact as any *_API_KEY value is; heldout53: a session id in
# a URL's query, a bearer credential as in heldout12; heldout54: a local
# postgres:postgres@ password, a Sentry DSN's key as in heldout28, and a
# B2 key id given as B2_ACCOUNT_ID, redacted as AWS key ids are; heldout55:
# a Twilio Account SID again; heldout56: RevenueCat's appl_/goog_ SDK keys,
# which its writer calls public and the rules redact, as heldout17's
# writer asked: they name the account; heldout58: a Twilio Account SID
# again; heldout63: AWS access key ids given to --access-key-id, redacted
# as everywhere, and a Twilio Account SID; heldout70: an AWS access key
# id given to --access-key-id again; heldout114: a Twilio Account SID;
# heldout115: RevenueCat SDK keys, as heldout56; heldout119: a Sentry
# DSN's key given to vercel env add, as heldout28; heldout125: a Mapbox
# public token, whose payload names the account (heldout112's writer
# lists five as secrets), and a value stored with gh secret set, as
# heldout34; heldout128: mysql -p WORD, as heldout105's Rivendell line).
	IFS=: read -r name secrets clean decided <<-EOF
	$c
	EOF
	S=$FIX/$secrets C=$FIX/$clean
	if [ -n "$decided" ]; then
		# several strings are separated by ";"
		printf '%s\n' "$decided" | tr ';' '\n' >"$T/pat.$secrets"
		sed 's/$/[REDACTED/' "$T/pat.$secrets" >"$T/patr.$secrets"
		grep -vF -f "$T/pat.$secrets" "$FIX/$clean" >"$T/clean.$secrets"
		grep -F -f "$T/pat.$secrets" "$FIX/$clean" >"$T/decided.$secrets"
		C=$T/clean.$secrets
		test_expect_success "$name: lines with $decided are redacted, by decision" '
			test "$(wc -l <"$T/decided.$secrets")" -ge "$(wc -l <"$T/pat.$secrets")" &&
			deliberate redact --level minimal <"$T/decided.$secrets" >"$T/out" &&
			test "$(grep -cF -f "$T/patr.$secrets" "$T/out")" = "$(wc -l <"$T/decided.$secrets")"
		'
	fi
	test_expect_success "$name: present and large enough" '
		test "$(grep -v "^#" "$S" | grep -c .)" -ge 250 &&
		test "$(grep -v "^#" "$C" | grep -c .)" -ge 150
	'
	test_expect_success "$name: recall >= 99% at minimal" '
		corpus --level minimal --secrets "$S" --min-recall 99 -v
	'
	test_expect_success "$name: no clean line changes at minimal" '
		corpus --level minimal --clean "$C" --max-fp 0 -v
	'
	test_expect_success "$name: no secret at standard either (typing never un-redacts)" '
		corpus --level standard --secrets "$S" --min-recall 99
	'
done

test_done
