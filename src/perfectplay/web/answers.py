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
#: made JSON by :func:`~perfectplay.engine.solution.json_value`, so not walked again here).
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
    script: str | None = Field(description="The address of the game's own board code "
                               "(JavaScript), or null for the plain tab.")


class GameAnswer(Answer):
    """One game the API serves."""

    name: str = Field(description="The game's name, as in /api/{name}/analyze.")
    title: str = Field(description="The game's title.")
    rules: str = Field(description="The rules in a few sentences.")
    input: str = Field(description="How an instance is written (the body's `text` or "
                       "`row`).")
    aliases: list[str] = Field(description="Older names the API still takes (deprecated).")
    example: dict[str, Any] = Field(description="An analyze body that works.")
    page: PageAnswer = Field(description="How the page shows the game.")
    analyze: dict[str, Any] = Field(description="The JSON Schema of the analyze body.")
    play: dict[str, Any] | None = Field(
        default=None, description="The JSON Schema of the play body (two-player games "
        "only; absent otherwise).")


class GamesAnswer(Answer):
    """``GET /api/games``: every game, in the registry's order."""

    games: list[GameAnswer] = Field(description="Every game the API serves.")


#: Every answer's model, as /api/schema lists them under components/schemas.
ANSWERS: tuple[type[Answer], ...] = (AnalyzeAnswer, PlayAnswer, GamesAnswer, Problem)
