"""Right numbers, wrong format: prints a label before the answer."""

print("answer: 0")
