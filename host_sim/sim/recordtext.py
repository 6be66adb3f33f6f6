"""A game's end in a person's words, and the board's SGF record with the players and the result added."""
import re

_HOW = {"R": "%s resigned", "T": "%s lost on time", "F": "%s forfeited"}


def result_words(result):
    """The board's result as a person reads it: "W+R (Black resigned)",
    "B+3.5 (the board's count)"."""
    winner, _, margin = result.partition("+")
    how = _HOW.get(margin[:1].upper())
    if how:
        return "%s (%s)" % (result, how % ("Black" if winner.upper() == "W" else "White"))
    return "%s (the board's count)" % result


def opinion_note(name, random_person=False):
    """Why an engine's final_score may differ from the board's count; with
    the scripted random person (--auto), why it differs much."""
    text = ("%s counts the stones it judges dead, the board only those lifted while "
            "counting" % name)
    if random_person:
        text += "; the scripted random person lifts none, so every stone counted alive"
    return "(" + text + ")"


def plural(n, word):
    """"1 game", "2 games": what a person reads."""
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def with_players(text, black, white):
    """The SGF with PB[]/PW[] (the board does not know who plays it)."""
    if "PB[" in text or "PW[" in text:
        return text
    i = text.find(";")
    j = text.find(";", i + 1)
    if j < 0:
        j = text.rfind(")")

    def value(name):
        return name.replace("\\", "\\\\").replace("]", "\\]")
    return text[:j] + "PB[%s]PW[%s]" % (value(black), value(white)) + text[j:]


def record_moves(text):
    """How many moves (passes included) an SGF record holds."""
    return len(re.findall(r";\s*[BW]\[", text))


def with_result(text, result):
    """The SGF with RE[result] when the board's record has none (a
    resignation the board was only told of over GTP)."""
    if not result or "RE[" in text:
        return text
    i = text.find(";")
    j = text.find(";", i + 1)
    if j < 0:
        j = text.rfind(")")
    return text[:j] + "RE[%s]" % result + text[j:]


PLAYER = "Go Gadget"  # the person's name in a record when none is given
