"""The knockout bracket is drawn as a bracket: each tie sits halfway between the two ties that fed it."""
from __future__ import annotations


def test_each_tie_is_centred_between_its_feeders(page, server, kinds):
    page.goto(server + kinds["stage"])
    cols = page.evaluate("""() => Array.from(document.querySelectorAll('.tree > li'), li =>
        Array.from(li.querySelectorAll('.tie'), t => { const r = t.getBoundingClientRect();
                                                       return [r.left, r.top + r.height / 2]; }))""")
    assert len(cols) >= 2 and len(cols[-1]) == 1
    for col, nxt in zip(cols, cols[1:]):
        assert len(col) == 2 * len(nxt)
        for k, (x, y) in enumerate(nxt):
            assert x > col[0][0]
            assert abs(y - (col[2 * k][1] + col[2 * k + 1][1]) / 2) <= 2
    assert page.errors == []
