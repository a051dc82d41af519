from tests.play import HEADERS, random_game


def test_random_games_of_both_editions_run_to_the_finish():
    for name, header in HEADERS.items():
        for seed in range(20):
            game = random_game(header, seed)
            assert game.state.finished, (name, seed)
