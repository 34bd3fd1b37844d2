"""The web page (optional extra ``perfectplay[web]``): ``perfectplay serve``.

The page shows the same results, explanations and JSON as the CLI, through the same objects
(:mod:`.app`); starlette, uvicorn and pydantic are imported only here.
"""
