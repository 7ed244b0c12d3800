"""league/standings/criteria.py: the one registry of tie-break criteria that the schema, the games, the
explanations and the API read."""
from league.content import schema
from league.i18n import using
from league.standings import criteria as C
from league.standings.core import Boundary, HeadToHead, Metric, RecordedDraw
from league.standings.explain import NAMES, PHRASES, explain


def _schema_enum(model, field: str) -> list:
    js = model.model_json_schema()
    prop = js["properties"][field]
    items = prop.get("items") or next(a["items"] for a in prop["anyOf"] if a.get("type") == "array")
    return items["enum"]


def test_the_schema_accepts_exactly_the_registry_keys_of_each_list():
    # league.yaml's truco lists may name the six criteria of Truco 10.1; quatrilho.tiebreaks those of Art. 21, 22
    # and the recorded decision (Art. 3) — nothing else, in this order (the JSON Schema's enum, VS Code's completion)
    assert _schema_enum(schema.TrucoSettings, "team_tiebreaks") == [
        "wins", "points", "head_to_head", "pair_points_balance", "pontinhos_balance", "draw"]
    assert _schema_enum(schema.TrucoSettings, "pair_tiebreaks") == list(C.keys_for(C.TRUCO))
    assert _schema_enum(schema.QuatrilhoSettings, "tiebreaks") == [
        "net", "positive_rounds", "points_won", "best_round", "draw"]


def test_the_defaults_are_the_regulations_orders():
    # Truco 10.1: vitórias, pontos, confronto direto, saldo de duplas, saldo de pontinhos, sorteio;
    # Truco 10.3/12.2 for pairs: pontos first; Quatrilho Art. 21, 22 then Art. 3
    assert schema.TrucoSettings().team_tiebreaks == list(C.TEAM_DEFAULT) == [
        "wins", "points", "head_to_head", "pair_points_balance", "pontinhos_balance", "draw"]
    assert schema.TrucoSettings().pair_tiebreaks == [
        "points", "wins", "head_to_head", "pair_points_balance", "pontinhos_balance", "draw"]
    assert schema.QuatrilhoSettings().tiebreaks == list(C.QUATRILHO_DEFAULT)


def test_every_key_a_list_may_name_makes_its_criterion():
    made = C.make(C.keys_for(C.TRUCO))
    assert [type(c) for c in made] == [Metric, Metric, HeadToHead, Metric, Metric, RecordedDraw]
    assert [c.key for c in made] == list(C.keys_for(C.TRUCO))
    assert [c.key for c in C.make(C.QUATRILHO_DEFAULT)] == list(C.QUATRILHO_DEFAULT)
    assert [c.key for c in C.make(C.ANNUAL_ORDER)] == ["points", "countback"]


def test_every_criterion_has_a_name_an_item_and_the_explanations_read_them():
    for key, spec in C.CRITERIA.items():
        assert spec.item.startswith(("Truco ", "Quatrilho ")), key
        assert NAMES[key] is spec.name
    with using("pt_BR"):
        assert C.name("pontinhos_balance") == "saldo de pontinhos"
        assert str(PHRASES["wins"]) == C.phrase("wins") == "pelo número de vitórias"
        # a boundary decided by wins, 3 against 2: the registry's phrase in the sentence
        assert explain(Boundary("wins", 3, 2, 2)) == "à frente pelo número de vitórias (3 contra 2)"
    with using("en"):
        assert C.name("wins") != "número de vitórias"   # translated when shown, not when the registry loads
