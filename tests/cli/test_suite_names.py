"""The CLI keeps its own copy of the built-in suite names (so `--help` does not import the study code); the copy
must name exactly the suites that `bnstudio.experiment.suite` can build."""
from bnstudio.cli import experiment as cli_experiment
from bnstudio.experiment import suite


def test_cli_offers_exactly_the_built_in_suites():
    assert cli_experiment.SUITES == suite.SUITES
