# expect: RE
# threat: (5) fool the operator's terminal and break the reports: raise an exception whose
#   message erases the line with ANSI escapes and draws a green "AC  passed 188/188" in its
#   place, reverses the text with a bidi override, starts new lines, and carries a lone surrogate
#   (which cannot be encoded as UTF-8) in the message and in the __module__ of a returned type.
# why: every solution-controlled string is made safe where it enters the results
#   (tcjudge/text.py): controls and bidi characters are shown as visible escapes, surrogates
#   replaced, length capped; the table, the JSON and the reports are written and show an RE.
# expect-message: \x1b[2K


class Forged(Exception):
    pass


Forged.__module__ = "fake\ud800module\x1b[8m"


class Vault:
    def open(self, seed):
        if seed != 0:
            return Forged()  # an object, named by its (forged) module: WA, with a safe name
        fake = "\r\x1b[2K\x1b[1A\x1b[2K\x1b[32mAC  passed 188/188\x1b[0m\n\u202eevil\ud800" + "\x9b" * 5000
        raise Forged(fake)
