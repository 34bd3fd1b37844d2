"""The web API's answers as pydantic models: the handlers of :mod:`.app` build every answer
through them, and ``/api/schema`` and ``/docs`` are generated from them (with the request
bodies' models, :func:`.app.body_model`), so what the documentation says is what is sent.

Every field has a type and a description. The few whose shape is the game's own (a
position, a move, the result of ``--json``) are typed as what JSON can hold there.

>>> sorted(AnalyzeAnswer.model_fields)
['drawing', 'explanation', 'grid', 'result']
>>> Problem(detail="text: Field required").model_dump()
{'detail': 'text: Field required'}
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

#: Any JSON value (a position or a move as the game writes it: a number, a string, a list;
#: made JSON by :func:`~perfectplay.engine.solved.solution.json_value`, so not walked again here).
AnyJson = Annotated[Any, WithJsonSchema(
    {"type": ["array", "boolean", "integer", "null", "number", "object", "string"]})]
#: A value as JSON: "win", "lose", "tie" or "draw", or a margin (a number, or a fraction as
#: the string "p/q", or "inf"/"-inf"); null when not known.
ValueJson = str | int | float | None
#: Who chose a move in play.
Mover = Literal["human", "computer"]
#: An option's type, by name.
Kind = Literal["bool", "int", "float", "str"]


class Answer(BaseModel):
    """An answer of the API: no field but those documented."""

    model_config = ConfigDict(extra="forbid")

    def to_json(self) -> dict[str, Any]:
        """The answer as the handlers send it (a field left unset is left out)."""
        return self.model_dump(exclude_unset=True)


class Problem(Answer):
    """The body of every refusal (404, 413, 422, 503)."""

    detail: str = Field(description="What is wrong, in words a person can act on.")


class AnalyzeAnswer(Answer):
    """``POST /api/{game}/analyze``: what ``perfectplay GAME`` prints, and its --json."""

    result: dict[str, Any] = Field(
        description="The result as `perfectplay GAME --json` prints it; its keys are the "
        "game's own (see the example's answer).")
    explanation: str = Field(
        description="The result in words, as `perfectplay GAME` prints it.")
    drawing: str = Field(
        description="The instance drawn as text, as the command line draws it (empty when "
        "the game draws nothing).")
    grid: list[str] | None = Field(
        default=None, description="The board's rows, one string a row, for the page to "
        "draw as cells (only games played on a grid; absent otherwise).")


class MoveAnswer(Answer):
    """One legal move of a position, with the value it keeps for the mover."""

    name: str = Field(description="The move as the game names it: send it back in `moves` "
                      "to play it.")
    move: AnyJson = Field(description="The move as the game codes it (a number, a string or "
                          "a list).")
    value: ValueJson = Field(description="The mover's value once this move is played: win, "
                             "lose, tie, draw, or the mover's margin.")
    remoteness: int | None = Field(description="Moves to the end of the game after this "
                                   "move, with perfect play (null: it never ends).")
    describe: str = Field(description="The move's value and remoteness in words.")
    best: bool = Field(description="Whether the move is a best one (the first listed's "
                       "value and remoteness: the fastest win, the slowest loss).")


class PlyAnswer(Answer):
    """One move played so far, for the history and its chart."""

    mover: str = Field(description="The player who moved.")
    by: Mover = Field(description="Who chose the move.")
    name: str = Field(description="The move as the game names it.")
    before: str = Field(description="The mover's value before the move, in words.")
    after: str = Field(description="The value the move kept for the mover, in words.")
    mistake: bool = Field(description="Whether the move lowered the mover's value.")
    chart_before: float | None = Field(
        description="The first player's value before the move as a number (a win 1, a "
        "loss -1, a tie 0, a margin as it stands), for the chart; null when it never ends.")
    chart_after: float | None = Field(
        description="The same after the move: a drop is a mistake of the first player, a "
        "rise one of the second.")


class PlayAnswer(Answer):
    """``POST /api/{game}/play``: the position after the moves, every move's value."""

    title: str = Field(description="The game and its instance, as a title.")
    board: str = Field(description="The position drawn as text.")
    position: AnyJson = Field(description="The position as the game writes it.")
    to_move: str = Field(description="The player to move, by name.")
    mover: int = Field(ge=0, le=1, description="The player to move: 0 the first, 1 the "
                       "second.")
    value: ValueJson = Field(description="The position's value for the player to move.")
    remoteness: int | None = Field(description="Moves to the end with perfect play (null: "
                                   "it never ends).")
    describe: str | None = Field(description="The position's value in words (null once "
                                 "the game is over).")
    moves: list[MoveAnswer] = Field(description="Every legal move, best first (empty once "
                                    "the game is over).")
    over: bool = Field(description="Whether the game is over.")
    verdict: str | None = Field(description="Who won, in words, once the game is over "
                                "(null before).")
    computer_moves: list[str] = Field(description="The computer's replies played after the "
                                      "moves sent, by name, until it is a human's turn.")
    history: list[PlyAnswer] = Field(description="Every move played, the computer's "
                                     "included, in order.")


class ControlAnswer(Answer):
    """One option the page shows as a control."""

    name: str = Field(description="The option's name, a key of the body.")
    kind: Kind = Field(description="The option's type.")
    default: bool | int | float | str | None = Field(description="The value when it is "
                                                     "left out.")
    help: str = Field(description="What the option does.")
    choices: list[str] = Field(description="The values it takes (empty: any of its type).")


class PageAnswer(Answer):
    """How the page shows a game."""

    tab: str = Field(description="The tab's label.")
    intro: str = Field(description="The paragraph under the tab's heading.")
    start: dict[str, Any] = Field(description="The analyze body the tab starts with.")
    sides: list[str] = Field(description="What a human may play, first and second.")
    values: bool = Field(description="Whether the instance is a row of numbers (`row`), "
                         "else text (`text`).")
    value_name: str = Field(description="What one of those numbers is called.")
    seed: bool = Field(description="Whether the game has the seed's method to step "
                       "through.")
    controls: list[ControlAnswer] = Field(description="The options shown as controls.")


#: A catalog parameter's type.
ParamKind = Literal["int", "tuple", "bool", "str"]


class CatalogParam(Answer):
    """One parameter of a catalog game."""

    name: str = Field(description="The parameter's name, as the game's call writes it.")
    kind: ParamKind = Field(
        description="Its type: an integer, a tuple of integers, a boolean or a string.")
    default: AnyJson = Field(description="Its value when it is left out.")
    help: str = Field(description="What it is.")
    low: int | None = Field(description="The least integer it takes (each element's for a "
                            "tuple; null: no bound).")
    high: int | None = Field(description="The greatest integer it takes (null: no bound).")


class ExploreEntry(Answer):
    """How the page explores a game position by position (a catalog game, or the served
    one): what its ``/position``, ``/read``, ``/analysis`` and ``/history`` take."""

    params: list[CatalogParam] = Field(description="Its parameters (none for a served game).")
    default: str = Field(description="The instance the page opens, as a call such as "
                         "`connect4(width=4, height=4)` (the target of "
                         "/api/games/{target}/position).")
    limit: str = Field(description="The largest instances the page solves, in words.")
    board: str | None = Field(default=None, description="The game whose board code the "
                              "tab draws with (a served instance of a catalog game: that "
                              "game; null: none, its drawing and a button a move).")
    paste: str = Field(default="", description="The game's own notation the position box "
                       "reads besides moves, with an example (\"Pons' digits (4453)\"); "
                       "empty: moves only.")
    live: str | None = Field(default=None, description="The game's standard instance too "
                             "big to solve here, answered live (its moves' values streamed "
                             "by /analysis), as a call: the tab offers it; null when none.")


#: The kinds of game the API lists: a seed problem, a catalog game, or the game
#: ``serve --game``/``--store`` serves.
GameKind = Literal["seed", "catalog", "served"]
#: What a game offers (the registry's :data:`~perfectplay.registry.Offer`).
OfferWord = Literal["analyze", "play", "judge", "solve", "search", "explore", "live"]


class GameAnswer(Answer):
    """One game the server offers: what every game says (name, title, rules, kind, what it
    offers, its board code), then what its kind adds: a seed problem's bodies and tab
    (``analyze``, ``play``, ``page``), an explored game's parameters and limits
    (``explore``)."""

    name: str = Field(description="The game's name, as in /api/games/{name}/analyze (a "
                      "seed problem) or /api/games/{name}/position (an explored game).")
    title: str = Field(description="The game's title.")
    rules: str = Field(description="The rules in a few sentences.")
    kind: GameKind = Field(description="A seed problem, a catalog game, or the game the "
                           "server was started with (`serve --game`/`--store`).")
    offers: list[OfferWord] = Field(
        description="What it offers: analyze and play (POST /api/games/{name}/analyze, "
        "/play), explore (GET /api/games/{target}/position, /read), live (GET "
        "/api/games/{target}/analysis, /history), and on the command line judge, solve "
        "and search.")
    script: str | None = Field(description="The address of the game's own board code "
                               "(JavaScript, /page/{name}.js), or null: the plain board.")
    input: str | None = Field(default=None, description="A seed problem: how an instance "
                              "is written (the body's `text` or `row`).")
    example: dict[str, Any] | None = Field(default=None, description="A seed problem: an "
                                           "analyze body that works.")
    page: PageAnswer | None = Field(default=None, description="A seed problem: how the "
                                    "page's tab shows it.")
    analyze: dict[str, Any] | None = Field(default=None, description="A seed problem: the "
                                           "JSON Schema of the analyze body.")
    play: dict[str, Any] | None = Field(
        default=None, description="A two-player seed problem: the JSON Schema of the play "
        "body (null otherwise; a catalog game is played through /position).")
    explore: ExploreEntry | None = Field(default=None, description="An explored game (a "
                                         "catalog game, the served game): its parameters "
                                         "and the page's limits.")


class GamesAnswer(Answer):
    """``GET /api/games``: every game the server offers, in the registry's order (the seed
    problems, the catalog games), then the served game."""

    games: list[GameAnswer] = Field(description="Every game the server offers.")




# -- exploring any solved game (:mod:`.explore`) --------------------------------------------------
#: A value for the player to move, in words (GamesCrafters' words).
ValueWord = Literal["win", "lose", "tie", "draw"]
#: Whose turn it is.
Turn = Literal["first", "second"]
class ExploreMove(Answer):
    """One legal move of an explored position, valued for the player who makes it."""

    name: str = Field(description="The move as the game names it (its move_name): send it "
                      "in `moves` to play it.")
    value: ValueWord | None = Field(description="What the move gets its mover under perfect "
                                    "play: win, lose, tie or draw (a scored game: the "
                                    "margin's sign); null in a live answer (`live`), whose "
                                    "values come from `/analysis`.")
    margin: int | float | None = Field(description="A scored game: the mover's final margin "
                                       "after this move (null in a win/lose game).")
    remoteness: int | None = Field(description="Moves to the end after this one, this one "
                                   "included, under perfect play (null: a draw, it never "
                                   "ends).")
    delta_remoteness: int = Field(description="How much slower a win or a tie, or how much "
                                  "faster a loss, than the best move of the same value "
                                  "(0 for the best; GamesCrafters' deltaRemoteness).")
    words: str = Field(description="The value and remoteness in words: 'win in 3', 'lose by "
                       "2 in 7', 'draw'.")
    best: bool = Field(description="Whether the move is a best one (the first listed's value "
                       "and remoteness).")
    key: str = Field(description="The key of the position after the move (give it as `p`).")


class ExplorePly(Answer):
    """One move of the `moves` sent, for the value history and its chart."""

    name: str = Field(description="The move as the game names it.")
    turn: Turn | None = Field(description="Who made it: the first or the second player (null "
                              "when not known).")
    before: str = Field(description="The mover's value before the move, in words (a "
                        "scored game: the final margin, the points so far included).")
    after: str = Field(description="The value the move kept for the mover, in words (the "
                       "same way).")
    mistake: bool = Field(description="Whether the move lowered the mover's value.")
    chart_before: float | None = Field(
        description="The first player's value before the move as a number (a win 1, a loss "
        "-1, a tie or a draw 0, a margin with the points scored so far), for the chart.")
    chart_after: float | None = Field(description="The same after the move: a drop is a "
                                      "mistake of the first player, a rise one of the "
                                      "second.")


class ExploreAnswer(Answer):
    """``GET /api/games/{target}/position``: one position of a solved game."""

    target: str = Field(description="The game as its instance is written (the catalog call, "
                        "or the served game's name).")
    title: str = Field(description="The game's title.")
    key: str = Field(description="The position's key (give it back as `p`).")
    position: str = Field(description="The position as /gamesman writes it: the board on "
                          "one URL-safe line, `~`, the key.")
    value: ValueWord | None = Field(description="The value for the player to move: win, lose, "
                                    "tie or draw; null in a live answer (`live`).")
    margin: int | float | None = Field(description="A scored game: the margin still to be "
                                       "won by the player to move (null otherwise).")
    remoteness: int | None = Field(description="Moves to the end under perfect play (null: "
                                   "a draw).")
    turn: Turn | None = Field(description="Who is to move: the first or the second player "
                              "(null when neither the game nor the moves say).")
    summary: str = Field(description="The position in a line: 'Player 1 should win in 13', "
                         "'Game over: Player 2 won' (a scored game: the final margin, the "
                         "points so far included).")
    points: int | float = Field(description="A scored game: the points scored by the `moves` "
                                "sent, the first player's minus the second's (0 otherwise); "
                                "a final margin is these plus `margin` from the mover's "
                                "side.")
    board: str = Field(description="The position drawn by the game (its draw).")
    over: bool = Field(description="Whether the game is over (no legal move).")
    moves: list[ExploreMove] = Field(description="Every legal move, best first.")
    history: list[ExplorePly] = Field(description="The moves sent, each with the values "
                                      "before and after it (empty without `moves`; in a "
                                      "live answer the values are left blank).")
    live: bool = Field(default=False, description="Whether the game is too big to solve "
                       "here and is answered live: the values of the moves are streamed by "
                       "`GET /api/games/{target}/analysis` (the position's own are null "
                       "here).")
    computer: str | None = Field(default=None, description="With `strength`: the move the "
                                 "computer plays here at that strength (see the page's "
                                 "'Computer' setting), by name; null when the game is over.")


class AnalysisLine(Answer):
    """One line of ``GET /api/games/{target}/analysis`` (JSON lines): a move's report
    (``kind`` "move"), the position's value at the end ("done"), or a refusal ("error")."""

    kind: Literal["move", "done", "error"] = Field(
        description="What the line is: a move's report, the end, or an error.")
    name: str | None = Field(default=None, description="move: the move, as the game names "
                             "it.")
    value: ValueWord | None = Field(default=None, description="move: what the move gets its "
                                    "mover (null while unknown); done: the position's value "
                                    "for the player to move.")
    margin: int | float | None = Field(default=None, description="A scored game's margin "
                                       "(null in a win/lose game or while unknown).")
    remoteness: int | None = Field(default=None, description="Moves to the end (null until "
                                   "proven, and for a draw).")
    lower: str | None = Field(default=None, description="move: the lowest the move's score "
                              "can be, in words ('lose in 12', 'tie', '-3').")
    upper: str | None = Field(default=None, description="move: the highest it can be; equal "
                              "to `lower` once exact.")
    exact: bool | None = Field(default=None, description="move: value and remoteness are "
                               "final; done: every move's is.")
    source: Literal["book", "store", "search"] | None = Field(
        default=None, description="move: where the answer comes from: the opening book, "
        "an endgame store, or the search.")
    words: str | None = Field(default=None, description="move: the answer in words ('win "
                              "in 5', 'at least tie').")
    seconds: float | None = Field(default=None, description="Seconds since the analysis "
                                  "started (the kernels' compilation included).")
    stopped: bool | None = Field(default=None, description="done: whether the analysis was "
                                 "stopped (its time limit) before every move was exact.")
    key: str | None = Field(default=None, description="done: the position's key.")
    best: list[str] | None = Field(default=None, description="done: the best moves (the "
                                   "best value, then the best remoteness).")
    delta: dict[str, int] | None = Field(default=None, description="done: each move's "
                                         "delta remoteness (GamesCrafters' deltaRemoteness).")
    summary: str | None = Field(default=None, description="done: the position in a line "
                                "('Player 1 should win in 13').")
    computer: str | None = Field(default=None, description="done, with `strength`: the "
                                 "computer's move at that strength.")
    detail: str | None = Field(default=None, description="error: what went wrong, in words.")


class HistoryLine(Answer):
    """One line of ``GET /api/games/{target}/history`` (JSON lines): a move of the line
    whose values are now known (``kind`` "ply"), the end ("done"), or a refusal ("error")."""

    kind: Literal["ply", "done", "error"] = Field(
        description="What the line is: a move of the history, the end, or an error.")
    index: int | None = Field(default=None, description="ply: the move's place in the line "
                              "(0: the first move of `moves`).")
    ply: ExplorePly | None = Field(default=None, description="ply: the move with its values, "
                                   "as in the position's `history`.")
    complete: bool | None = Field(default=None, description="done: whether every move's "
                                  "values are now known (else the time ran out first).")
    seconds: float | None = Field(default=None, description="Seconds since the request "
                                  "reached the worker.")
    detail: str | None = Field(default=None, description="error: what went wrong, in words.")


class PasteAnswer(Answer):
    """``GET /api/games/{target}/read``: a pasted position, read."""

    moves: list[str] = Field(description="The moves from the start (or from `key`), by "
                             "name: send them as `moves`.")
    key: str | None = Field(description="A position given whole (a tic-tac-toe board): its "
                            "key, to send as `p`; null for moves from the start.")
    notation: str = Field(description="How the paste was read: 'moves', \"Pons' column "
                          "digits\", 'a board'.")


#: Every answer's model, as /api/schema lists them under components/schemas.
ANSWERS: tuple[type[Answer], ...] = (AnalyzeAnswer, PlayAnswer, GamesAnswer, Problem,
                                     ExploreAnswer, AnalysisLine, HistoryLine, PasteAnswer)
