net Weights
{
	node Weather
	{
		TYPE = CPT;
		HEADER =
		{
			ID = Weather;
			NAME = "Weather";
		};
		PARENTS = ();
		DEFINITION =
		{
			NAMESTATES = (Sunny, Cloudy, Rainy);
			PROBABILITIES = (0.333, 0.333, 0.333);
		};
	};

	node Umbrella
	{
		TYPE = CPT;
		HEADER =
		{
			ID = Umbrella;
			NAME = "Umbrella";
		};
		PARENTS = (Weather);
		DEFINITION =
		{
			NAMESTATES = (Taken, Left);
			PROBABILITIES = (0.1, 0.9, 2, 6, 0.8, 0.2);
		};
	};
};
